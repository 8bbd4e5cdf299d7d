//! taflbot: the application.
