//! Skills: directories walked for `SKILL.md`, each with YAML frontmatter (Agent Skills format).

use serde::Serialize;
use serde_json::Value;

use crate::codes::Code;
use crate::memo::SharedText;
use crate::yaml::{self, Frontmatter};

/// A parsed skill. Text fields are data: they are never evaluated as templates.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skill {
    pub name: String,
    pub description: String,
    /// Path of the SKILL.md file relative to the project root.
    pub path: String,
    /// The name of the folder holding SKILL.md.
    pub folder: String,
    /// All frontmatter fields in document order.
    #[serde(skip)]
    pub fields: Vec<(String, Value)>,
    /// Byte offset where the body starts.
    #[serde(skip)]
    pub body_offset: usize,
}

/// A skill's body (the text after its frontmatter): a view of the SKILL.md's text as read, so
/// that the agents and checks reading one skill share that one text instead of a copy each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillBody {
    text: SharedText,
    start: usize,
}

impl SkillBody {
    /// The body of `text` from byte `start` (empty when `start` is not a boundary inside it).
    pub fn new(text: SharedText, start: usize) -> Self {
        let start = if text.is_char_boundary(start) { start } else { text.len() };
        SkillBody { text, start }
    }
}

impl std::ops::Deref for SkillBody {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text[self.start..]
    }
}

/// Why a SKILL.md could not be parsed; `offset` is a byte offset in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillError {
    pub message: String,
    pub offset: Option<usize>,
    /// The rule code (SKILL001 no frontmatter, SKILL002 bad YAML, SKILL003 name, SKILL006 description).
    pub code: Code,
}

pub fn parse_skill(path: &str, text: &str) -> Result<Skill, SkillError> {
    let folder = path.rsplit('/').nth(1).unwrap_or("").to_string();
    let front = yaml::frontmatter(text).map_err(|e| match e {
        yaml::FrontmatterError::Missing => SkillError {
            message: "SKILL.md has no YAML frontmatter (a `---` line, `name:` and `description:`, then `---`)".into(),
            offset: Some(0),
            code: Code::SKILL001,
        },
        yaml::FrontmatterError::Unterminated => {
            SkillError { message: "frontmatter is not closed by a `---` line".into(), offset: Some(0), code: Code::SKILL001 }
        }
        yaml::FrontmatterError::Invalid(e) => {
            SkillError { message: format!("malformed YAML frontmatter: {}", e.message), offset: e.offset, code: Code::SKILL002 }
        }
    })?;
    let Frontmatter { fields, body_offset, .. } = &front;
    let key_offset = |key: &str| front.field_span(key).map(|f| f.key_span.start);
    let field = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let string_field = |key: &str| -> Result<String, SkillError> {
        let code = if key == "name" { Code::SKILL003 } else { Code::SKILL006 };
        match field(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(SkillError { message: format!("frontmatter `{key}` must be a string"), offset: key_offset(key), code }),
            None => Err(SkillError { message: format!("frontmatter has no `{key}`"), offset: Some(0), code }),
        }
    };
    Ok(Skill {
        name: string_field("name")?,
        description: string_field("description")?,
        path: path.to_string(),
        folder,
        fields: fields.clone(),
        body_offset: *body_offset,
    })
}

/// The catalogue line of a name and description: a skill's line in the `skills` step.
pub fn catalogue_line(name: &str, description: &str) -> String {
    let mut line = String::new();
    push_catalogue_line(&mut line, name, description);
    line
}

/// Appends [`catalogue_line`] to `text` (written in place: the step lists every skill of every
/// agent in every mode).
pub fn push_catalogue_line(text: &mut String, name: &str, description: &str) {
    for part in ["- ", name, ": ", description] {
        text.push_str(part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_description_and_folder() {
        let skill = parse_skill("skills/notes/SKILL.md", "---\nname: notes\ndescription: Takes notes.\n---\n# Notes\n").expect("valid");
        assert_eq!((skill.name.as_str(), skill.folder.as_str()), ("notes", "notes"));
    }

    #[test]
    fn a_body_is_the_text_after_its_start_or_nothing() {
        let text = SharedText::new("---\nname: é\n---\nBody.\n");
        assert_eq!(&*SkillBody::new(text.clone(), 17), "Body.\n");
        assert_eq!(&*SkillBody::new(text.clone(), 11), "", "not a character boundary");
        assert_eq!(&*SkillBody::new(text, 99), "", "past the end");
    }

    #[test]
    fn points_at_bad_fields() {
        let err = parse_skill("s/x/SKILL.md", "---\nname: x\ndescription: [1, 2]\n---\n").expect_err("list");
        assert_eq!(err.offset, Some(12));
        let err = parse_skill("s/x/SKILL.md", "---\nname: x\n---\n").expect_err("missing");
        assert!(err.message.contains("description"));
    }
}
