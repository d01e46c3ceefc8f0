// The MCP tools Gemini CLI sends and the names it gives them, as its core package decides:
// `isEnabled` (the server's includeTools and excludeTools) and `generateValidName` of
// `SERVER_TOOL`, for each server of the settings file and each tool name given for it.
// Input: a JSON file {"settings": {mcpServers...}, "tools": {server: [tool names]}}; output: a
// JSON file {server: [names sent, in the order given]}.
// Usage: node mcp_names.mjs CORE_PACKAGE_DIR INPUT_FILE OUTPUT_FILE
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [core, input, output] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(core, 'dist/src', file)).href);
const { generateValidName } = await load('tools/mcp-tool.js');
const { isEnabled } = await load('tools/mcp-client.js');

const { settings, tools } = JSON.parse(readFileSync(input, 'utf8'));
const result = {};
for (const [server, config] of Object.entries(settings.mcpServers)) {
  result[server] = (tools[server] ?? [])
    .filter((name) => isEnabled({ name }, server, config))
    .map((name) => generateValidName(`${server}_${name}`));
}
writeFileSync(output, JSON.stringify(result));
