//! Where the lichess token comes from: the environment variable `LICHESS_TOKEN`, else the
//! system's secret store (Secret Service on Linux, Keychain on macOS, Credential Manager on
//! Windows) through the `keyring` crate. The token is never written anywhere else.
//!
//! The secret store may take seconds to answer (or to start), so these are called off the
//! UI thread.

/// The environment variable the lichess token is read from.
pub const TOKEN_VARIABLE: &str = "LICHESS_TOKEN";
/// The secret store's entry: service and user.
const SERVICE: &str = "boardsight";
const ENTRY: &str = "lichess-token";

/// The token from the environment, if one is set.
pub fn from_environment() -> Option<String> {
    std::env::var(TOKEN_VARIABLE)
        .ok()
        .map(|token| token.trim().to_owned())
        .filter(|token| !token.is_empty())
}

/// The token kept in the system's secret store, if one is.
pub fn from_keyring() -> Result<Option<String>, String> {
    match entry()?.get_password() {
        Ok(token) => Ok(Some(token).filter(|token| !token.trim().is_empty())),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(store_problem(&e)),
    }
}

/// The token to use: the environment's, else the secret store's. The error says how to
/// give one.
pub fn find() -> Result<String, String> {
    if let Some(token) = from_environment() {
        return Ok(token);
    }
    let kept = from_keyring();
    if let Ok(Some(token)) = kept {
        return Ok(token);
    }
    let keyring = match kept {
        Err(problem) => format!(" ({problem})"),
        _ => String::new(),
    };
    Err(format!(
        "no lichess token: create one at lichess.org/account/oauth/token (scope board:play \
         to play, study:write to broadcast) and set {TOKEN_VARIABLE}, or keep it in the \
         system keyring with `boardsight token`{keyring}"
    ))
}

/// `token` if given, else the environment's or the secret store's (which may take a while:
/// not for the UI thread).
pub fn given_or_found(token: Option<String>) -> Result<String, String> {
    token.map_or_else(find, Ok)
}

/// Keeps `token` in the system's secret store.
pub fn remember(token: &str) -> Result<(), String> {
    entry()?
        .set_password(token.trim())
        .map_err(|e| store_problem(&e))
}

/// Removes the token from the system's secret store; says whether one was there.
pub fn forget() -> Result<bool, String> {
    match entry()?.delete_credential() {
        Ok(()) => Ok(true),
        Err(keyring::Error::NoEntry) => Ok(false),
        Err(e) => Err(store_problem(&e)),
    }
}

fn entry() -> Result<keyring::Entry, String> {
    keyring::Entry::new(SERVICE, ENTRY).map_err(|e| store_problem(&e))
}

fn store_problem(error: &keyring::Error) -> String {
    match error {
        keyring::Error::NoDefaultStore | keyring::Error::NoStorageAccess(_) => format!(
            "the system keyring cannot be reached (on Linux a Secret Service such as \
             gnome-keyring or KeePassXC must be running): {error}"
        ),
        _ => format!("the system keyring: {error}"),
    }
}
