//! Reading a TypeScript declaration file (`.d.ts`) a package ships: the members of one type.

/// The top-level members of the type whose declaration starts with `header` (`export declare
/// interface Settings {`, `export type Config = {`): its lines indented by four spaces, each key
/// before its `:` (a `?` and quotes removed); nested types are indented further and are not
/// members.
pub fn members(types: &str, header: &str) -> Vec<String> {
    let start = types.find(header).unwrap_or_else(|| panic!("`{header}` is in the types"));
    let body = &types[start..];
    let body = &body[..body.find("\n}").expect("the type's end")];
    body.lines()
        .filter_map(|line| {
            let member = line.strip_prefix("    ").filter(|m| !m.starts_with(' '))?;
            let (key, _) = member.split_once(':')?;
            let key = key.trim_end_matches('?').trim_matches(['\'', '"']);
            key.chars().all(|c| c.is_ascii_alphanumeric() || "$_-".contains(c)).then(|| key.to_string())
        })
        .collect()
}
