//! Board renderer: tafl positions to PNG.
