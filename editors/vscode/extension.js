// Starts `ctxc lsp` for the workspace and adds a preview of the rendered prompt (`ctxc/render`).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("ctxc");
  const args = ["lsp", ...config.get("set", []).flatMap((kv) => ["--set", kv])];
  const server = { command: config.get("path", "ctxc"), args };
  client = new LanguageClient("ctxc", "ctxc", server, {
    documentSelector: [
      { scheme: "file", pattern: "**/ctxc.{toml,yaml,yml}" },
      { scheme: "file", language: "markdown" },
      { scheme: "file", pattern: "**/*.{j2,jinja,json,jsonl}" },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*") },
  });
  context.subscriptions.push(
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
  client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
