// Starts `ctxc lsp` for the workspace and adds a preview of the rendered prompt (`ctxc/render`).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

// The server as the settings say: `ctxc.path` (a bare name is looked up on PATH; a relative path
// is the workspace folder's, where the server runs), with `ctxc.set` as `--set` arguments.
function serverOptions() {
  const config = vscode.workspace.getConfiguration("ctxc");
  const args = ["lsp", ...config.get("set", []).flatMap((kv) => ["--set", kv])];
  const folder = (vscode.workspace.workspaceFolders || [])[0];
  return { command: config.get("path") || "ctxc", args, options: folder ? { cwd: folder.uri.fsPath } : {} };
}

function newClient() {
  return new LanguageClient("ctxc", "ctxc", serverOptions(), {
    // What ctxc reads (docs/editors.md, "The files ctxc serves"); the server tells them apart by path.
    documentSelector: [
      { scheme: "file", language: "markdown" },
      { scheme: "file", pattern: "**/*.{toml,yaml,yml,txt,j2,jinja,json,jsonc,jsonl,mdc}" },
      { scheme: "file", pattern: "**/.cursorrules" },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*") },
  });
}

function activate(context) {
  client = newClient();
  context.subscriptions.push(
    // A changed executable or override takes effect at once: the server is started again.
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (!event.affectsConfiguration("ctxc")) return;
      await client.stop();
      client = newClient();
      await client.start();
    }),
    vscode.commands.registerCommand("ctxc.preview", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const mode = await vscode.window.showInputBox({ prompt: "Mode (empty: the first)" });
      const result = await client.sendRequest("ctxc/render", { uri: editor.document.uri.toString(), mode: mode || undefined });
      const doc = await vscode.workspace.openTextDocument({ content: result.text, language: "markdown" });
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside, true);
      vscode.window.setStatusBarMessage(`${result.agent} · ${result.mode} · ${result.scenario}: ${result.tokens} tokens`, 10000);
    })
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
