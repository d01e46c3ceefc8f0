// Gemini CLI's skills listing for each working directory given, as its core package builds it at
// session start in a trusted folder (SkillManager.discoverSkills, then renderAgentSkills of the
// system prompt), without its built-in skills (not the repository's), written as one JSON object
// {directory: text} to the output file ("" when no skill is listed). HOME is set by the test to
// an empty folder, so no user skill is found.
// Usage: node skills.mjs CORE_PACKAGE_DIR OUTPUT_FILE DIRECTORY...
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [core, output, ...directories] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(core, 'dist/src', file)).href);
const { SkillManager } = await load('skills/skillManager.js');
const { Storage } = await load('config/storage.js');
const snippets = await load('prompts/snippets.js');

const result = {};
for (const directory of directories) {
  const manager = new SkillManager();
  await manager.discoverSkills(new Storage(directory), [], true);
  const listed = manager.getSkills().filter((s) => !s.isBuiltin);
  result[directory] = snippets.renderAgentSkills(
    listed.map((s) => ({ name: s.name, description: s.description, location: s.location })),
  );
}
writeFileSync(output, JSON.stringify(result));
