//! Configuration switches: dynamic discovery and bounded code mode.
//!
//! Both default to off (opt-in) and are snapshotted at session creation. In
//! Node the defaults come from `HOLARYN_DYNAMIC_TOOL_DISCOVERY` and
//! `HOLARYN_BOUNDED_CODE_MODE` (`true`/`false`); explicit options override.
//! The core reads no environment: hosts pass the variables' values in.

use holaryn_model::{Error, ErrorCode, Result};

/// Environment variable for the dynamic-discovery default.
pub const ENV_DYNAMIC: &str = "HOLARYN_DYNAMIC_TOOL_DISCOVERY";
/// Environment variable for the bounded-code-mode default.
pub const ENV_CODE_MODE: &str = "HOLARYN_BOUNDED_CODE_MODE";

/// Parse one switch variable: unset or empty → `None`, `true`/`false` → the
/// value, anything else → `config.invalid` naming the variable.
pub fn parse_switch(name: &str, value: Option<&str>) -> Result<Option<bool>> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(other) => Err(Error::new(
            ErrorCode::ConfigInvalid,
            format!("{name} must be `true` or `false`, got `{other}`"),
        )
        .with_field(name)),
    }
}

/// The effective switch: the explicit option, else the variable, else off.
pub fn resolve_switch(explicit: Option<bool>, name: &str, env_value: Option<&str>) -> Result<bool> {
    let from_env = parse_switch(name, env_value)?;
    Ok(explicit.or(from_env).unwrap_or(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_parse_strictly_and_explicit_options_win() {
        assert_eq!(parse_switch(ENV_DYNAMIC, None), Ok(None));
        assert_eq!(parse_switch(ENV_DYNAMIC, Some("true")), Ok(Some(true)));
        let err = parse_switch(ENV_CODE_MODE, Some("yes")).expect_err("invalid");
        assert_eq!(err.code, ErrorCode::ConfigInvalid);
        assert!(err.message.contains(ENV_CODE_MODE));
        assert_eq!(
            resolve_switch(Some(false), ENV_DYNAMIC, Some("true")),
            Ok(false)
        );
        assert_eq!(resolve_switch(None, ENV_DYNAMIC, Some("true")), Ok(true));
        assert_eq!(resolve_switch(None, ENV_DYNAMIC, None), Ok(false));
    }
}
