//! Test harness for end-to-end tests (fake Discord, app launcher).
