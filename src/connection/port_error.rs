//! Why a serial port cannot be used, in words a player can act on: the serial worker (so the
//! app and `listen`) and `ports --probe` all say it this way.

use std::io;
use std::path::Path;

/// What went wrong with a serial port, as far as the user can do something about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PortFault {
    /// The user may not open the device (on Linux: not in the group that owns it).
    NoPermission,
    /// Another program has the port open.
    InUse,
    /// There is no device at the path (unplugged, or a wrong name).
    Missing,
    /// Anything else, in the system's words.
    Other(String),
}

/// `EBUSY` on Linux and the BSDs: a terminal another program holds exclusively.
const EBUSY: i32 = 16;

impl PortFault {
    /// The fault behind an error from opening or using a port with `serialport`.
    pub fn of_serial(error: &serialport::Error) -> Self {
        use serialport::ErrorKind;
        match error.kind() {
            ErrorKind::Io(io::ErrorKind::PermissionDenied) => Self::NoPermission,
            ErrorKind::Io(io::ErrorKind::NotFound) => Self::Missing,
            // serialport opens exclusively (TIOCEXCL and flock); it reports a port already
            // held as NoDevice ("Device or resource busy", "Unable to acquire exclusive lock").
            ErrorKind::NoDevice => Self::InUse,
            _ => Self::of_description(&error.description),
        }
    }

    /// The fault behind an I/O error on a port (reading, writing, or an open that was
    /// already turned into an `io::Error`).
    pub fn of_io(error: &io::Error) -> Self {
        if error.raw_os_error() == Some(EBUSY) {
            return Self::InUse;
        }
        match error.kind() {
            io::ErrorKind::PermissionDenied => Self::NoPermission,
            io::ErrorKind::ResourceBusy => Self::InUse,
            // serialport turns its NoDevice (a port in use) into NotFound: its words tell.
            _ => match Self::of_description(&error.to_string()) {
                Self::Other(_) if error.kind() == io::ErrorKind::NotFound => Self::Missing,
                fault => fault,
            },
        }
    }

    fn of_description(description: &str) -> Self {
        let lower = description.to_lowercase();
        if lower.contains("busy") || lower.contains("exclusive lock") {
            Self::InUse
        } else if lower.contains("permission denied") || lower.contains("not permitted") {
            Self::NoPermission
        } else if lower.contains("no such file") {
            Self::Missing
        } else {
            Self::Other(description.to_owned())
        }
    }
}

/// The message for a serial port that failed with `error`: the path, what is wrong and
/// the fix.
pub fn port_error_message(path: &str, error: impl Into<PortError>) -> String {
    format!("{path}: {}", port_error_words(path, error))
}

/// What is wrong with the port at `path` and the fix, without the path.
pub fn port_error_words(path: &str, error: impl Into<PortError>) -> String {
    let fault = match error.into() {
        PortError::Serial(e) => PortFault::of_serial(&e),
        PortError::Io(e) => PortFault::of_io(&e),
    };
    fault_words(&fault, device_group(Path::new(path)).as_deref())
}

/// An error from a serial port, whichever way it came.
#[derive(Debug)]
pub enum PortError {
    /// From opening or configuring the port.
    Serial(serialport::Error),
    /// From reading or writing it.
    Io(io::Error),
}

impl From<serialport::Error> for PortError {
    fn from(error: serialport::Error) -> Self {
        Self::Serial(error)
    }
}

impl From<io::Error> for PortError {
    fn from(error: io::Error) -> Self {
        Self::Io(error)
    }
}

impl From<&serialport::Error> for PortError {
    fn from(error: &serialport::Error) -> Self {
        Self::Serial(error.clone())
    }
}

impl From<&io::Error> for PortError {
    fn from(error: &io::Error) -> Self {
        Self::Io(io::Error::new(error.kind(), error.to_string()))
    }
}

/// The group most Linux systems give serial devices.
pub const SERIAL_GROUP: &str = "dialout";

/// What `fault` means and the fix; `group` is the group owning the device, where known
/// (the fix names it).
pub fn fault_words(fault: &PortFault, group: Option<&str>) -> String {
    match fault {
        PortFault::NoPermission => {
            // A device left to root alone is no group's to join: the usual group is the fix.
            let group = group.filter(|g| *g != "root").unwrap_or(SERIAL_GROUP);
            if cfg!(target_os = "linux") {
                format!(
                    "no permission to use this serial port. Add yourself to the {group} group: \
                     `sudo usermod -aG {group} $USER`, then log out and in"
                )
            } else {
                "no permission to use this serial port: ask for access to it (the device's \
                 group or its rights)"
                    .to_owned()
            }
        }
        PortFault::InUse => "in use by another program: close that program (or disconnect the \
                             board there) and try again"
            .to_owned(),
        PortFault::Missing => "no such port: is the board plugged in?".to_owned(),
        PortFault::Other(words) => words.clone(),
    }
}

/// The name of the group owning the device at `path` (Linux: from /etc/group), if it can
/// be read.
#[cfg(unix)]
pub fn device_group(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let gid = std::fs::metadata(path).ok()?.gid();
    let groups = std::fs::read_to_string("/etc/group").ok()?;
    group_name(&groups, gid)
}

#[cfg(not(unix))]
pub fn device_group(_path: &Path) -> Option<String> {
    None
}

/// The name of group `gid` in the text of /etc/group (`name:password:gid:members`).
pub fn group_name(etc_group: &str, gid: u32) -> Option<String> {
    etc_group.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        let _password = fields.next()?;
        let id: u32 = fields.next()?.trim().parse().ok()?;
        (id == gid && !name.is_empty()).then(|| name.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permission_denied_says_how_to_join_the_group() {
        let error = serialport::Error::new(
            serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied),
            "Permission denied",
        );
        assert_eq!(PortFault::of_serial(&error), PortFault::NoPermission);
        let message = port_error_message("/dev/nonexistent-boardsight-port", error);
        if cfg!(target_os = "linux") {
            assert_eq!(
                message,
                "/dev/nonexistent-boardsight-port: no permission to use this serial port. Add \
                 yourself to the dialout group: `sudo usermod -aG dialout $USER`, then log out \
                 and in"
            );
        } else {
            assert!(message.contains("no permission"), "{message}");
        }
        let io_error = io::Error::from(io::ErrorKind::PermissionDenied);
        assert_eq!(PortFault::of_io(&io_error), PortFault::NoPermission);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_fix_names_the_group_that_owns_the_device() {
        let message = fault_words(&PortFault::NoPermission, Some("uucp"));
        assert!(
            message.contains("Add yourself to the uucp group: `sudo usermod -aG uucp $USER`"),
            "{message}"
        );
        let message = fault_words(&PortFault::NoPermission, Some("root"));
        assert!(message.contains("-aG dialout"), "{message}");
    }

    #[test]
    fn a_group_is_found_by_its_id() {
        let etc_group = "root:x:0:\ndaemon:x:1:\ndialout:x:20:pi\nuucp:x:14:\n";
        assert_eq!(group_name(etc_group, 20).as_deref(), Some("dialout"));
        assert_eq!(group_name(etc_group, 14).as_deref(), Some("uucp"));
        assert_eq!(group_name(etc_group, 99), None);
        assert_eq!(group_name("garbage\n::x\n", 0), None);
    }

    #[test]
    fn a_port_held_by_another_program_says_so() {
        for error in [
            serialport::Error::new(serialport::ErrorKind::NoDevice, "Device or resource busy"),
            serialport::Error::new(
                serialport::ErrorKind::NoDevice,
                "Unable to acquire exclusive lock on serial port",
            ),
        ] {
            assert_eq!(PortFault::of_serial(&error), PortFault::InUse);
            // The same error after serialport turned it into an io::Error.
            assert_eq!(PortFault::of_io(&io::Error::from(error)), PortFault::InUse);
        }
        assert_eq!(
            PortFault::of_io(&io::Error::from_raw_os_error(EBUSY)),
            PortFault::InUse
        );
        let message = port_error_message("/dev/ttyUSB0", io::Error::from_raw_os_error(EBUSY));
        assert!(
            message.starts_with("/dev/ttyUSB0: in use by another program"),
            "{message}"
        );
    }

    #[test]
    fn other_errors_keep_the_system_words() {
        let error = serialport::Error::new(
            serialport::ErrorKind::Io(io::ErrorKind::NotFound),
            "No such file or directory",
        );
        assert_eq!(PortFault::of_serial(&error), PortFault::Missing);
        let error = io::Error::other("Input/output error");
        assert_eq!(
            port_error_message("/dev/ttyUSB0", error),
            "/dev/ttyUSB0: Input/output error"
        );
    }

    #[test]
    #[cfg(unix)]
    fn a_second_open_of_a_port_is_in_use() {
        let (_master, slave) = serialport::TTYPort::pair().expect("a pseudo-terminal");
        let path = serialport::SerialPort::name(&slave).expect("its name");
        let first = serialport::new(&path, 9600).open().expect("the first open");
        let second = serialport::new(&path, 9600)
            .open()
            .expect_err("the port is held");
        assert_eq!(PortFault::of_serial(&second), PortFault::InUse, "{second}");
        drop(first);
    }
}
