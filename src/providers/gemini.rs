//! Gemini's tool declarations as google-genai's `LocalTokenizer` counts them (google-genai 3.6.1,
//! `local_tokenizer.py`): not as JSON, but as the texts of the declaration, each encoded alone
//! with the Gemma 3 tokenizer and the counts added: the name, the description, then the
//! parameters' schema, then the response's: a schema's format, description, enum values and
//! required names, its `items` schema, each property's name and schema, and the strings and keys
//! of its example. Other keywords (types, `anyOf`, bounds, defaults) add nothing, nor do the
//! JSON-schema fields `parametersJsonSchema` and `responseJsonSchema`.

use serde_json::Value;

use crate::tools::Tool;

/// The texts `LocalTokenizer` counts for `tool`, in its order: the `parameters` and `response`
/// schemas, never a `parametersJsonSchema` (`_function_declaration_traverse` reads neither
/// JSON-schema field).
pub fn declaration_texts(tool: &Tool) -> Vec<&str> {
    let mut texts = vec![tool.name.as_str()];
    texts.extend(tool.description.as_deref());
    if !tool.parameters_json_schema {
        schema_texts(&tool.parameters, &mut texts);
    }
    if let Some(response) = &tool.response {
        schema_texts(response, &mut texts);
    }
    texts
}

/// A schema's texts, as `_TextsAccumulator.add_schema` gathers them.
fn schema_texts<'a>(schema: &'a Value, texts: &mut Vec<&'a str>) {
    let Some(schema) = schema.as_object() else { return };
    for key in ["format", "description"] {
        texts.extend(schema.get(key).and_then(Value::as_str));
    }
    for key in ["enum", "required"] {
        texts.extend(schema.get(key).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str));
    }
    if let Some(items) = schema.get("items") {
        schema_texts(items, texts);
    }
    for (name, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
        texts.push(name);
        schema_texts(property, texts);
    }
    if let Some(example) = schema.get("example") {
        value_texts(example, texts);
    }
}

/// The strings and keys of a value, as `_TextsAccumulator._any_traverse` gathers them.
fn value_texts<'a>(value: &'a Value, texts: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => texts.push(s),
        Value::Object(map) => {
            texts.extend(map.keys().map(String::as_str));
            map.values().for_each(|v| value_texts(v, texts));
        }
        Value::Array(items) => items.iter().for_each(|v| value_texts(v, texts)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_counts_its_texts_not_its_json() {
        let tool = Tool::new(
            "get_weather".into(),
            "Gets the weather.".to_string(),
            serde_json::json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "The city", "example": {"k": ["v"]}},
                "unit": {"type": "string", "enum": ["c", "f"], "format": "enum", "default": "c"},
                "days": {"type": "array", "items": {"type": "integer", "description": "A day"}, "anyOf": [{"description": "not counted"}]}
            }, "required": ["city"]}),
            None,
        );
        assert_eq!(
            declaration_texts(&tool),
            vec!["get_weather", "Gets the weather.", "city", "city", "The city", "k", "v", "unit", "enum", "c", "f", "days", "A day"]
        );
    }

    #[test]
    fn the_response_schema_counts_and_a_json_schema_does_not() {
        let file = r#"{"functionDeclarations": [
            {"name": "a", "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}, "response": {"type": "OBJECT", "description": "Found", "properties": {"hits": {"type": "INTEGER"}}}},
            {"name": "b", "description": "Bee", "parametersJsonSchema": {"type": "object", "properties": {"x": {"type": "string", "description": "not counted"}}},
             "responseJsonSchema": {"type": "string", "description": "not counted either"}}]}"#;
        let tools = crate::tools::parse_tool_file(file).expect("declarations").tools;
        assert_eq!(declaration_texts(&tools[0]), vec!["a", "q", "Found", "hits"]);
        assert_eq!(declaration_texts(&tools[1]), vec!["b", "Bee"]);
    }
}
