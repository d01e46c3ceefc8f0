// Gemini CLI's project memory for each working directory given, as its core package builds it at
// session start (MemoryContextManager.refresh: the environment memory paths, read with imports
// expanded, concatenated), written as one JSON object {directory: text} to the output file.
// The settings a test writes in <directory>/.gemini/settings.json are applied as the CLI applies
// them (context.fileName through setGeminiMdFilename, context.memoryBoundaryMarkers).
// Usage: node memory.mjs CORE_PACKAGE_DIR OUTPUT_FILE DIRECTORY...
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [core, output, ...directories] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(core, 'dist/src', file)).href);
const discovery = await load('utils/memoryDiscovery.js');
const memoryTool = await load('tools/memoryTool.js');

const result = {};
for (const directory of directories) {
  let settings = {};
  try {
    settings = JSON.parse(readFileSync(path.join(directory, '.gemini', 'settings.json'), 'utf8'));
  } catch {}
  const context = settings.context ?? {};
  memoryTool.resetGeminiMdFilename();
  if (context.fileName) memoryTool.setGeminiMdFilename(context.fileName);
  const markers = context.memoryBoundaryMarkers ?? ['.git'];
  const project = await discovery.getEnvironmentMemoryPaths([directory], markers);
  const contents = await discovery.readGeminiMdFiles(project, 'tree', markers);
  const memory = discovery.categorizeAndConcatenate(
    { global: [], extension: [], project, userProjectMemory: [] },
    new Map(contents.map((c) => [c.filePath, c])),
  );
  result[directory] = memory.project;
}
writeFileSync(output, JSON.stringify(result));
