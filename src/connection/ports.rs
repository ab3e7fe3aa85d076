//! The serial ports a board may be on.

use serialport::SerialPortType;

/// A port the user can choose, with the USB product name where known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortChoice {
    pub path: String,
    pub description: String,
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
    let mut choices: Vec<(bool, PortChoice)> = ports
        .into_iter()
        .map(|port| {
            let (usb, description) = match &port.port_type {
                SerialPortType::UsbPort(info) => {
                    let name = [info.manufacturer.as_deref(), info.product.as_deref()]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(" ");
                    let name = if name.is_empty() {
                        format!("USB {:04x}:{:04x}", info.vid, info.pid)
                    } else {
                        name
                    };
                    (true, name)
                }
                SerialPortType::BluetoothPort => (false, "Bluetooth".to_owned()),
                SerialPortType::PciPort => (false, "PCI serial".to_owned()),
                SerialPortType::Unknown => (false, "serial".to_owned()),
            };
            (
                usb,
                PortChoice {
                    path: port.port_name,
                    description,
                },
            )
        })
        .collect();
    choices.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.path.cmp(&b.1.path)));
    Ok(choices.into_iter().map(|(_, choice)| choice).collect())
}
