//! An external program speaking a line protocol on its standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// Why talking to an external program failed.
#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("cannot start {command:?}: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("{command:?} gave us no {pipe} pipe")]
    NoPipe { command: String, pipe: &'static str },
    #[error("{name} stopped reading: {source}")]
    Write {
        name: String,
        source: std::io::Error,
    },
    #[error("{name} said nothing for {timeout:?}")]
    Silent { name: String, timeout: Duration },
    #[error("{name} exited")]
    Exited { name: String },
}

pub struct Process {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    pub fn spawn(command: &str) -> Result<Process, ProcessError> {
        // `exec`, so that killing the child kills the engine and not only the shell.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| ProcessError::Spawn {
                command: command.to_string(),
                source,
            })?;
        let no_pipe = |pipe| ProcessError::NoPipe {
            command: command.to_string(),
            pipe,
        };
        let stdin = child.stdin.take().ok_or_else(|| no_pipe("stdin"))?;
        let stdout = child.stdout.take().ok_or_else(|| no_pipe("stdout"))?;
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            name: command.to_string(),
            child,
            stdin,
            lines,
        })
    }

    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        tracing::debug!(engine = %self.name, "> {line}");
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|source| ProcessError::Write {
                name: self.name.clone(),
                source,
            })
    }

    /// The next line, waiting at most `timeout`.
    pub fn receive(&mut self, timeout: Duration) -> Result<String, ProcessError> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                tracing::debug!(engine = %self.name, "< {line}");
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(ProcessError::Silent {
                name: self.name.clone(),
                timeout,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ProcessError::Exited {
                name: self.name.clone(),
            }),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
