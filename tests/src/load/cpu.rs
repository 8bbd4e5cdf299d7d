//! How much processor time the run's process got, and how busy the machine was: a run's figures
//! mean little without them on a shared host.

/// The CPU time (user and system) this process has used, in seconds; `None` off Linux.
pub fn process_cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces), from field 3 on.
    let after_name = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15: here 11 and 12 (0-based, from field 3).
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    // The kernel's USER_HZ, 100 on every Linux this runs on.
    Some((user + system) / 100.0)
}

/// The machine's load average over the last minute; `None` off Linux.
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Cores the machine offers this process.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_grows_with_work() {
        let Some(before) = process_cpu_secs() else {
            return;
        };
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_millis(100) {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        let after = process_cpu_secs().unwrap_or(before);
        assert!(after >= before, "{before} then {after} ({x})");
        assert!(load_average().is_some());
        assert!(cores() >= 1);
    }
}
