-- Placeholder: version 17 belongs to the HTTP sessions work (branch http-crowd-rest), merged
-- beside this one. It does nothing; the merge replaces it with that branch's 0017.
SELECT 1;
