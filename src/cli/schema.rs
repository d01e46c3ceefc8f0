//! `ctxc schema`: print the manifest's JSON Schema.

use super::EXIT_OK;

pub fn run() -> u8 {
    super::output::print_json(&ctxc::schema::manifest_schema());
    EXIT_OK
}
