-- Driven by tests/integration/editors.rs: `nvim --headless -u NONE -i NONE -c "luafile neovim.lua"`
-- in a scratch project. Starts `$CTXC lsp` as Neovim's own LSP client, opens `$CTXC_OPEN`,
-- waits for a diagnostic with code `$CTXC_CODE`, hovers at `$CTXC_HOVER` ("line:character",
-- 0-based) and prints what it saw; any failure exits non-zero with the reason on stderr.
local timeout = 60000

local function fail(why)
  io.stderr:write("neovim.lua: " .. why .. "\n")
  vim.cmd("cquit 3")
end

local ok, err = pcall(function()
  local root = vim.loop.cwd()
  local seen = {}
  local config = {
    name = "ctxc",
    cmd = { os.getenv("CTXC"), "lsp" },
    root_dir = root,
    handlers = {
      ["textDocument/publishDiagnostics"] = function(e, result, ctx, c)
        for _, d in ipairs(result.diagnostics) do
          table.insert(seen, d)
        end
        return vim.lsp.handlers["textDocument/publishDiagnostics"](e, result, ctx, c)
      end,
    },
  }
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CTXC_OPEN")))
  local buf = vim.api.nvim_get_current_buf()
  -- `vim.lsp.start` from Neovim 0.8; Debian 12's 0.7 has only `start_client` + `buf_attach_client`.
  local client_id
  if vim.lsp.start then
    client_id = vim.lsp.start(config, { bufnr = buf })
  else
    client_id = vim.lsp.start_client(config)
    if client_id then
      vim.lsp.buf_attach_client(buf, client_id)
    end
  end
  if not client_id then
    return fail("the client did not start " .. config.cmd[1])
  end

  local code = os.getenv("CTXC_CODE")
  local function found()
    for _, d in ipairs(seen) do
      if d.code == code then
        return d
      end
    end
  end
  if not vim.wait(timeout, function() return found() ~= nil end, 20) then
    return fail("no diagnostic " .. code .. " within " .. timeout .. " ms; received: " .. vim.inspect(seen))
  end
  local d = found()
  io.stdout:write(string.format("diagnostic %s %d:%d %s", d.code, d.range.start.line, d.range.start.character, d.message) .. "\n")

  local line, character = os.getenv("CTXC_HOVER"):match("(%d+):(%d+)")
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = tonumber(line), character = tonumber(character) },
  }
  local answers, why = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, timeout)
  local answer = answers and answers[client_id]
  if not answer or answer.err or not answer.result then
    return fail("no hover: " .. vim.inspect(why or answer))
  end
  io.stdout:write("hover " .. answer.result.contents.kind .. "\n")
  io.stdout:write(answer.result.contents.value .. "\n")
  vim.lsp.stop_client(client_id)
  vim.cmd("qall!")
end)
if not ok then
  fail(tostring(err))
end
