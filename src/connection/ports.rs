//! The serial ports a board may be on.

use std::path::Path;

use serialport::SerialPortType;

/// A port the user can choose, with the USB product name where known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortChoice {
    pub path: String,
    pub description: String,
    /// The USB device's serial number, where it has one: the same board keeps it on any
    /// port and after a replug, so a board is known again by it.
    pub serial_number: Option<String>,
    /// The USB vendor and product ids, for a USB port.
    pub usb_id: Option<UsbId>,
}

/// A USB device's vendor and product ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UsbId {
    pub vid: u16,
    pub pid: u16,
}

impl std::fmt::Display for UsbId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04x}:{:04x}", self.vid, self.pid)
    }
}

impl PortChoice {
    /// A port the system did not list (a pseudo-terminal, a link): known by its path only.
    pub fn given(path: &str) -> Self {
        Self {
            path: path.to_owned(),
            description: "not listed by the system".to_owned(),
            serial_number: None,
            usb_id: None,
        }
    }

    /// The description with the USB serial number and ids: `FTDI FT232R (serial A50285BI,
    /// USB 0403:6001)`.
    pub fn long_description(&self) -> String {
        let details: Vec<String> = [
            self.serial_number.as_ref().map(|s| format!("serial {s}")),
            self.usb_id.map(|id| format!("USB {id}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if details.is_empty() {
            self.description.clone()
        } else {
            format!("{} ({})", self.description, details.join(", "))
        }
    }
}

/// The serial ports of this machine, USB ones first.
pub fn list_ports() -> Result<Vec<PortChoice>, serialport::Error> {
    // The enumeration reads /sys; a system without it must not bring the app down.
    let ports = std::panic::catch_unwind(serialport::available_ports).unwrap_or_else(|_| {
        Err(serialport::Error::new(
            serialport::ErrorKind::Unknown,
            "the system's list of serial ports could not be read",
        ))
    })?;
    let mut choices: Vec<PortChoice> = ports.into_iter().map(choice_of).collect();
    choices.sort_by(|a, b| {
        b.usb_id
            .is_some()
            .cmp(&a.usb_id.is_some())
            .then_with(|| a.path.cmp(&b.path))
    });
    Ok(choices)
}

fn choice_of(port: serialport::SerialPortInfo) -> PortChoice {
    let (description, serial_number, usb_id) = match &port.port_type {
        SerialPortType::UsbPort(info) => {
            let name = [info.manufacturer.as_deref(), info.product.as_deref()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
            let id = UsbId {
                vid: info.vid,
                pid: info.pid,
            };
            let name = if name.is_empty() {
                format!("USB {id}")
            } else {
                name
            };
            let serial = info
                .serial_number
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
            (name, serial, Some(id))
        }
        SerialPortType::BluetoothPort => ("Bluetooth".to_owned(), None, None),
        SerialPortType::PciPort => ("PCI serial".to_owned(), None, None),
        SerialPortType::Unknown => ("serial".to_owned(), None, None),
    };
    PortChoice {
        path: port.port_name,
        description,
        serial_number,
        usb_id,
    }
}

/// The listed ports and then each of `given` the list lacks (a given path that leads to a
/// listed port, as a link does, takes that port's description).
pub fn ports_with(listed: Vec<PortChoice>, given: &[String]) -> Vec<PortChoice> {
    let mut ports = listed;
    for path in given {
        if ports.iter().any(|p| p.path == *path) {
            continue;
        }
        match ports.iter().find(|p| same_device(&p.path, path)).cloned() {
            // The user's own name for it is the one to show.
            Some(target) => ports.push(PortChoice {
                path: path.clone(),
                ..target
            }),
            None => ports.push(PortChoice::given(path)),
        }
    }
    ports
}

/// Whether two paths name the same device (one may be a link to the other).
fn same_device(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (
        std::fs::canonicalize(Path::new(a)),
        std::fs::canonicalize(Path::new(b)),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usb(path: &str, serial: Option<&str>) -> PortChoice {
        PortChoice {
            path: path.to_owned(),
            description: "DGT Centaur".to_owned(),
            serial_number: serial.map(str::to_owned),
            usb_id: Some(UsbId {
                vid: 0x2341,
                pid: 0x0043,
            }),
        }
    }

    #[test]
    fn the_long_description_has_the_serial_number_and_ids() {
        assert_eq!(
            usb("/dev/ttyACM0", Some("8543")).long_description(),
            "DGT Centaur (serial 8543, USB 2341:0043)"
        );
        assert_eq!(
            PortChoice::given("/tmp/board").long_description(),
            "not listed by the system"
        );
    }

    #[test]
    fn given_paths_follow_the_listed_ports_once_each() {
        let ports = ports_with(
            vec![usb("/dev/ttyACM0", None)],
            &["/dev/ttyACM0".to_owned(), "/tmp/no-such-board".to_owned()],
        );
        let paths: Vec<&str> = ports.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(paths, ["/dev/ttyACM0", "/tmp/no-such-board"]);
        assert_eq!(ports[1].description, "not listed by the system");
    }

    #[test]
    #[cfg(unix)]
    fn a_link_to_a_listed_port_takes_its_description() {
        let dir = tempfile::tempdir().expect("a folder");
        let device = dir.path().join("ttyFAKE0");
        std::fs::write(&device, b"").expect("a file");
        let link = dir.path().join("board");
        std::os::unix::fs::symlink(&device, &link).expect("a link");
        let device = device.to_string_lossy().into_owned();
        let link = link.to_string_lossy().into_owned();
        let ports = ports_with(vec![usb(&device, Some("42"))], std::slice::from_ref(&link));
        assert_eq!(ports.len(), 2);
        assert_eq!(ports[1].path, link);
        assert_eq!(ports[1].serial_number.as_deref(), Some("42"));
    }
}
