//! Where the store lives: `database.url` (`sqlite://path`, a bare path, or `postgres://...`),
//! or `database.path` when no url is given.

use std::fmt;
use std::path::PathBuf;

use super::{ConfigError, DatabaseConfig};

/// The database a `database.url` names.
#[derive(Clone, PartialEq, Eq)]
pub enum DatabaseLocation {
    /// An SQLite file, created (and migrated) when absent.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://user:password@host:port/database`).
    Postgres(String),
}

const SQLITE_SCHEME: &str = "sqlite://";
const POSTGRES_SCHEMES: &[&str] = &["postgres://", "postgresql://"];

impl DatabaseConfig {
    /// The database to open: `url` when set (an environment override wins over the file's
    /// `path`), else `path`.
    pub fn location(&self) -> Result<DatabaseLocation, ConfigError> {
        let url = self.url.trim();
        if url.is_empty() {
            return Ok(DatabaseLocation::Sqlite(self.path.clone()));
        }
        if let Some(path) = url.strip_prefix(SQLITE_SCHEME) {
            if path.is_empty() {
                return Err(ConfigError::Invalid(
                    "database.url sqlite:// needs a file path, as in sqlite://./taflbot.db".into(),
                ));
            }
            return Ok(DatabaseLocation::Sqlite(PathBuf::from(path)));
        }
        if POSTGRES_SCHEMES.iter().any(|s| url.starts_with(s)) {
            return Ok(DatabaseLocation::Postgres(url.to_owned()));
        }
        if let Some((scheme, _)) = url.split_once("://") {
            // Only the scheme is quoted: the rest may hold a password.
            return Err(ConfigError::Invalid(format!(
                "database.url scheme {scheme:?} is not supported: use sqlite://path (or a bare \
                 file path) or postgres://user@host/database"
            )));
        }
        Ok(DatabaseLocation::Sqlite(PathBuf::from(url)))
    }
}

/// For logs and errors: the file, or only that it is PostgreSQL (a URL may hold a password).
impl fmt::Display for DatabaseLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseLocation::Sqlite(path) => write!(f, "{}", path.display()),
            // Host, port and database, never the user or password before the `@`.
            DatabaseLocation::Postgres(url) => {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
                let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
                let rest = rest.split_once('?').map_or(rest, |(place, _)| place);
                write!(f, "PostgreSQL at {rest}")
            }
        }
    }
}

impl fmt::Debug for DatabaseLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseLocation::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            DatabaseLocation::Postgres(_) => f.write_str("Postgres(..)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn location(url: &str) -> Result<DatabaseLocation, ConfigError> {
        DatabaseConfig {
            url: url.to_owned(),
            ..DatabaseConfig::default()
        }
        .location()
    }

    #[test]
    fn sqlite_urls_bare_paths_and_no_url_name_a_file() {
        let file = |p: &str| Some(DatabaseLocation::Sqlite(PathBuf::from(p)));
        assert_eq!(location("").ok(), file("./taflbot.db"));
        assert_eq!(location("sqlite://./data/t.db").ok(), file("./data/t.db"));
        assert_eq!(
            location("sqlite:///var/lib/t.db").ok(),
            file("/var/lib/t.db")
        );
        assert_eq!(location("/var/lib/t.db").ok(), file("/var/lib/t.db"));
    }

    #[test]
    fn postgres_urls_are_recognised_and_never_shown_whole() {
        let pg = location("postgres://bot:secret@db/taflbot").unwrap();
        assert!(matches!(pg, DatabaseLocation::Postgres(_)));
        assert!(matches!(
            location("postgresql://db/taflbot"),
            Ok(DatabaseLocation::Postgres(_))
        ));
        assert!(!pg.to_string().contains("secret"));
        assert_eq!(pg.to_string(), "PostgreSQL at db/taflbot");
        let with_options = location("postgres://u:p%40ss@10.0.0.5:5433/t?sslmode=disable").unwrap();
        assert_eq!(with_options.to_string(), "PostgreSQL at 10.0.0.5:5433/t");
        assert!(!format!("{pg:?}").contains("secret"));
    }

    #[test]
    fn other_schemes_and_an_empty_sqlite_path_are_refused_clearly() {
        let err = location("mysql://root:secret@db/t")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("\"mysql\"") && err.contains("sqlite://"),
            "{err}"
        );
        assert!(!err.contains("secret"), "{err}");
        assert!(location("sqlite://").is_err());
    }
}
