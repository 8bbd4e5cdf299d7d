-- The client network (an IPv4 address, or an IPv6 client's /64, as text) an analysis was asked
-- from, while it waits: the accounts asking from one address may have only so many waiting
-- together (games.analysis_max_queued_per_address). Cleared once the analysis is done; NULL
-- for one asked with no address (Discord, the command line) or before this column.
ALTER TABLE analyses ADD COLUMN requested_from TEXT;
