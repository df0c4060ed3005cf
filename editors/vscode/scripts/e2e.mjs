// Drives code-server in headless Chromium (playwright-core, Debian's chromium;
// never a downloaded browser). Called by scripts/e2e.sh with:
//   E2E_URL    the code-server URL with ?folder=
//   E2E_WS     the workspace folder
//   E2E_SKILL  the SKILL.md to open, relative to E2E_WS
//   E2E_ART    where the screenshot goes (vscode-e2e.png)
//   E2E_TMP    a scratch folder (Chromium profile)
//   CHROMIUM   the browser binary
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const env = (k, d) => {
  const v = process.env[k] ?? d;
  if (v === undefined) throw new Error(`${k} is not set`);
  return v;
};
const URL_ = env('E2E_URL');
const WS = env('E2E_WS');
const SKILL = env('E2E_SKILL');
const ART = env('E2E_ART');
const TMP = env('E2E_TMP', '/tmp');
const CHROMIUM = env('CHROMIUM', '/usr/bin/chromium');
const SHOT = join(ART, process.env.E2E_SCENARIO && process.env.E2E_SCENARIO !== 'main' ? `vscode-e2e-${process.env.E2E_SCENARIO}.png` : 'vscode-e2e.png');

const t0 = Date.now();
const say = (msg) => console.log(`    [${((Date.now() - t0) / 1000).toFixed(1).padStart(5)}s] ${msg}`);
const results = [];
const pass = (what) => {
  results.push(['PASS', what]);
  say(`PASS ${what}`);
};

// The text the activation preview must contain: a distinctive line of the skill body.
const source = readFileSync(join(WS, SKILL), 'utf8');
const body = source.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
const expected =
  (process.env.E2E_EXPECT || undefined) ??
  body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l.length >= 12 && !l.startsWith('#') && !/[`*_[\]<>|]/.test(l)) ??
  body.split(/\r?\n/).map((l) => l.trim()).find((l) => l.length > 0);
if (!expected) throw new Error(`${SKILL} has no body text to look for`);
say(`expected activation text: ${JSON.stringify(expected)}`);

const norm = (s) => s.replace(/\u00a0/g, ' ');

const profile = mkdtempSync(join(TMP, 'chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  chromiumSandbox: false,
  viewport: { width: 1600, height: 1000 },
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const page = context.pages()[0] ?? (await context.newPage());
page.setDefaultTimeout(60_000);
const consoleErrors = [];
page.on('console', (m) => {
  if (m.type() === 'error') consoleErrors.push(m.text());
});

async function shot() {
  await page.screenshot({ path: SHOT }).catch((e) => say(`screenshot failed: ${e}`));
}

/** Run a command from the palette (F1), by its title. */
async function runCommand(title) {
  // The palette computes its command list when it opens; on a loaded machine it
  // once opened without a contributed command for 30 s (CI stop 33), so reopen it.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 15_000 });
    } catch (e) {
      if (attempt >= 3) throw e;
      say(`command palette has no "${title}" yet (attempt ${attempt}): reopening it`);
      continue;
    }
    await row.click();
    return;
  }
}

/** Open a workspace file with Quick Open (Ctrl+P) and wait until it is the active editor. */
async function openFile(rel) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(rel);
  const folder = rel.split('/').slice(-2, -1)[0] ?? rel;
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: folder }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
  await page
    .locator('.editor-group-container.active .breadcrumbs-control', { hasText: folder })
    .first()
    .waitFor({ state: 'visible' });
}

async function editorText(locator) {
  return norm(await locator.innerText());
}

/** The language VS Code shows in the status bar for the active editor ("Skill", "Markdown"). */
async function editorLanguage() {
  const item = page.locator('[id="status.editor.mode"]').first();
  await item.waitFor({ state: 'visible' });
  return norm(await item.innerText()).trim();
}

/** Every row of the Problems panel, one line each. */
async function problemRows(settled = () => true, timeoutMs = 30_000) {
  await runCommand('View: Focus Problems');
  await page.locator('.markers-panel').first().waitFor({ state: 'visible' });
  await page.waitForTimeout(1500); // markers settle (VS Code's own checks run 200 ms after a change)
  const read = async () => (await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).map((t) => norm(t).replace(/\s+/g, ' ').trim());
  // On a loaded machine VS Code's own checks come late: read again until the rows look settled.
  const until = Date.now() + timeoutMs;
  let rows = await read();
  while (!settled(rows) && Date.now() < until) {
    await page.waitForTimeout(500);
    rows = await read();
  }
  return rows;
}

/**
 * Completion items offered on a new frontmatter line after typing `prefix`, by label
 * (line 3 is the description; the line is deleted afterwards).
 */
async function completionLabels(prefix, enough = () => true, timeoutMs = 20_000) {
  await page.keyboard.press('Escape');
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.waitForTimeout(300);
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(prefix);
  await page.keyboard.press('Control+Space');
  const rows = page.locator('.suggest-widget.visible .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForTimeout(2000); // every provider has answered (the list is re-rendered as they do)
  const read = async () => (await page.locator('.suggest-widget.visible .monaco-list-row .label-name').allInnerTexts()).map((t) => norm(t).trim());
  // On a loaded machine a slow provider answers late: ask again (the list re-renders) until enough.
  const until = Date.now() + timeoutMs;
  let labels = await read();
  while (!enough(labels) && Date.now() < until) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
    await page.keyboard.press('Control+Space');
    await rows.first().waitFor({ state: 'visible', timeout: 30_000 }).catch(() => undefined);
    await page.waitForTimeout(1000);
    labels = await read();
  }
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+K'); // delete the line typed
  return labels;
}

const count = (xs, x) => xs.filter((y) => y === x).length;

/** Notifications shown (toasts) or kept in the notification centre, with this text. */
async function notifications(text) {
  await runCommand('Notifications: Show Notifications');
  await page.waitForTimeout(500);
  const n = await page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item', { hasText: text }).count();
  await page.keyboard.press('Escape');
  return n;
}

/** Click a notification's button, in its toast or (once the toast has hidden) in the centre. */
async function clickNotificationButton(text, button) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  if (!(await toast.isVisible())) await runCommand('Notifications: Show Notifications');
  const item = page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item', { hasText: text }).first();
  await item.locator('.monaco-button', { hasText: button }).first().click();
}

/** VS Code's own SKILL.md support beside skill-lsp: the offer, its button, completions once; fix-all on save. */
async function builtinScenario() {
  const settingsFile = env('E2E_USER_SETTINGS');
  const skillPath = join(WS, SKILL);
  // a. VS Code gives SKILL.md its own `skill` language, and skill-lsp offers (once) to turn it off.
  const lang = await editorLanguage();
  if (lang !== 'Skill') throw new Error(`the SKILL.md opened as "${lang}", not VS Code's own Skill language`);
  pass('VS Code opened the SKILL.md in its own "Skill" language');
  const offer = page.locator('.notifications-toasts .notification-toast', { hasText: "VS Code's own SKILL.md support" });
  await offer.first().waitFor({ state: 'visible', timeout: 60_000 });
  if ((await offer.count()) !== 1) throw new Error(`${await offer.count()} offers shown`);
  pass(`one offer: "${norm(await offer.first().locator('.notification-list-item-message').innerText()).slice(0, 90)}…"`);
  // b. before: every completion twice, VS Code's own checks in the Problems panel
  const before = await completionLabels('lic', (l) => count(l, 'license') >= 2);
  say(`completion labels after "lic" (both): ${JSON.stringify(before)}`);
  if (count(before, 'license') < 2) throw new Error(`"license" offered ${count(before, 'license')} time(s) with both on: the duplication this fixes is not there`);
  pass(`with VS Code's own support on, "license" is offered ${count(before, 'license')} times`);
  // Marker rows end in [Ln N, Col M]; skill-lsp's name their source and code ("skill-lsp
  // DUPLICATE_KEY"), VS Code's own have neither; related-information rows start "SKILL.md [Ln".
  const theirs = (rows) =>
    rows.filter((r) => /\[Ln \d+, Col \d+\]$/.test(r) && !/skill-lsp\s*\(?[A-Z][A-Z_:]+\)?\s*\[Ln/.test(r) && !/^\S+ \[Ln \d+, Col \d+\] :/.test(r));
  const rowsBefore = await problemRows((rows) => theirs(rows).some((r) => /not found/i.test(r)) && rows.some((r) => r.includes('DUPLICATE_KEY')));
  say(`Problems panel (both):\n${rowsBefore.map((r) => `        ${r}`).join('\n')}`);
  const vsOwn = theirs(rowsBefore);
  if (!vsOwn.some((r) => /not found/i.test(r))) throw new Error('VS Code\'s own "not found" on the titled link is not in the Problems panel');
  pass(`VS Code's own checks are in the Problems panel (${vsOwn.length}), among them: "${vsOwn.find((r) => /not found/i.test(r))}"`);
  await runCommand('View: Focus Active Editor Group').catch(() => undefined);
  // c. the button: files.associations in the user settings, the editor becomes Markdown
  await clickNotificationButton("VS Code's own SKILL.md support", 'Use Skill LSP Only');
  const until = Date.now() + 30_000;
  while (Date.now() < until && !/"SKILL\.md":\s*"markdown"/.test(readFileSync(settingsFile, 'utf8'))) await page.waitForTimeout(250);
  if (!/"SKILL\.md":\s*"markdown"/.test(readFileSync(settingsFile, 'utf8'))) throw new Error(`no SKILL.md association in ${settingsFile}`);
  await page.locator('[id="status.editor.mode"]', { hasText: 'Markdown' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  pass('"Use Skill LSP Only" wrote files.associations {"SKILL.md": "markdown"} to the user settings; the editor is Markdown');
  // d. after: each completion once, only skill-lsp's findings
  await page.locator('.tabs-container .tab', { hasText: /^SKILL\.md/ }).first().click();
  const after = await completionLabels('lic');
  say(`completion labels after "lic" (skill-lsp only): ${JSON.stringify(after)}`);
  const dups = [...new Set(after)].filter((l) => count(after, l) > 1);
  if (count(after, 'license') !== 1 || dups.length) throw new Error(`"license" offered ${count(after, 'license')} times; repeated: ${dups}`);
  pass('completion items appear once ("license" once, no label repeated)');
  const rowsAfter = await problemRows((rows) => !theirs(rows).length && rows.some((r) => r.includes('DUPLICATE_KEY')));
  say(`Problems panel (skill-lsp only):\n${rowsAfter.map((r) => `        ${r}`).join('\n')}`);
  if (theirs(rowsAfter).length) throw new Error(`VS Code's own checks are still reported: ${theirs(rowsAfter)}`);
  if (!rowsAfter.some((r) => r.includes('DUPLICATE_KEY'))) throw new Error('skill-lsp\'s DUPLICATE_KEY is gone too');
  pass('only skill-lsp\'s findings are left (DUPLICATE_KEY among them)');
  // e. fix-all on save (editor.codeActionsOnSave: source.fixAll.skill-lsp) trims trailing whitespace
  await page.locator('.tabs-container .tab', { hasText: /^SKILL\.md/ }).first().click();
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Saved with trailing spaces   ');
  await page.keyboard.press('Control+S');
  const saved = () => readFileSync(skillPath, 'utf8');
  const done = Date.now() + 30_000;
  const fixed = () => /Saved with trailing spaces$/.test(saved());
  while (Date.now() < done && !fixed()) await page.waitForTimeout(250);
  if (!fixed()) throw new Error(`saved without the fix: ${JSON.stringify(saved().slice(-120))}`);
  if (/[ \t]$/m.test(saved())) throw new Error('trailing whitespace is left in the saved file');
  const dirty = await page.locator('.tabs-container .tab.dirty', { hasText: /^SKILL\.md/ }).count();
  if (dirty) throw new Error('the editor is still dirty after the save');
  pass('saving ran fix-all: the file on disk has no trailing whitespace, and the editor is clean');
  // f. the offer is remembered: VS Code's language back (a workspace setting), no second offer
  mkdirSync(join(WS, '.vscode'), { recursive: true });
  writeFileSync(join(WS, '.vscode', 'settings.json'), JSON.stringify({ 'files.associations': { 'SKILL.md': 'skill' } }));
  await page.locator('[id="status.editor.mode"]', { hasText: 'Skill' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForTimeout(8000);
  if ((await notifications("VS Code's own SKILL.md support")) > 0) throw new Error('the offer was made again after VS Code\'s language came back');
  const again = await completionLabels('lic', (l) => count(l, 'license') >= 2);
  if (count(again, 'license') < 2) throw new Error(`VS Code's language came back but "license" is offered ${count(again, 'license')} time(s)`);
  pass(`offer not repeated (globalState) although VS Code's own language is back (a workspace setting; "license" ${count(again, 'license')} times again)`);
  await shot();
}

const SCENARIO = process.env.E2E_SCENARIO ?? 'main';
const DONE = Symbol('done');
say(`scenario ${SCENARIO}`);
let failed = false;
try {
  say(`open ${URL_}`);
  await page.goto(URL_, { waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
  await page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ state: 'visible', timeout: 90_000 });
  pass('workbench loaded with the workspace folder');

  // 1. open the bad SKILL.md (Quick Open)
  await openFile(SKILL);
  const tab = page.locator('.tabs-container .tab', { hasText: /SKILL\.md|skill\.md/ }).first();
  await tab.waitFor({ state: 'visible' });
  pass(`opened ${SKILL}`);

  if (SCENARIO === 'missing') {
    // no server anywhere: one notification naming pipx and the setting, with Open Settings
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'pipx install skill-lsp' }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    const msg = norm(await toast.locator('.notification-list-item-message').first().innerText()).trim();
    if (!msg.includes('skillLsp.server.path')) throw new Error(`the notification does not name skillLsp.server.path: ${msg}`);
    const count = await page.locator('.notifications-toasts .notification-toast', { hasText: 'skill-lsp' }).count();
    if (count !== 1) throw new Error(`${count} skill-lsp notifications, expected one`);
    pass(`one notification: "${msg}"`);
    await page.locator('.status-bar-item, .statusbar-item', { hasText: 'Skill LSP' }).first().waitFor({ state: 'visible' });
    pass('status bar shows the server as missing');
    await page.screenshot({ path: join(ART, 'vscode-e2e-missing.png') });
    await toast.locator('.monaco-button', { hasText: 'Open Settings' }).first().click();
    await page.locator('.settings-editor .setting-item', { hasText: /Server:?\s*Path/i }).first().waitFor({ state: 'visible', timeout: 30_000 });
    pass('"Open Settings" shows the skillLsp.server.path setting');
    throw DONE;
  }

  // 2. the extension activated and the server answered skill-lsp.status (status bar)
  const status = page.locator('.statusbar-item', { hasText: /·\s*\d+\s+skills?/ }).first();
  await status.waitFor({ state: 'visible', timeout: 90_000 });
  pass(`extension activated, server running: status bar "${norm((await status.innerText()).trim())}"`);

  if (SCENARIO === 'builtin') {
    await builtinScenario();
    throw DONE;
  }

  // 3. diagnostics from the server (source skill-lsp) in the Problems panel
  await runCommand('View: Focus Problems');
  const marker = page.locator('.markers-panel .monaco-list-row', { hasText: 'skill-lsp' }).first();
  await marker.waitFor({ state: 'visible', timeout: 60_000 });
  const ours = (await page.locator('.markers-panel .monaco-list-row', { hasText: 'skill-lsp' }).allInnerTexts()).map((t) =>
    norm(t).replace(/\s+/g, ' ').trim(),
  );
  say(`Problems panel, skill-lsp rows:\n${ours.map((l) => `        ${l}`).join('\n')}`);
  pass(`diagnostics with source skill-lsp reached the editor (${ours.length} row(s))`);
  if (SCENARIO === 'untrusted') {
    // Restricted Mode: no code lens, no preview commands
    await page.locator('.editor-instance .monaco-editor').first().click({ position: { x: 300, y: 200 } });
    await page.waitForTimeout(3000);
    const lenses = await page.locator('.codelens-decoration').count();
    if (lenses !== 0) throw new Error(`${lenses} code lens(es) in Restricted Mode`);
    pass('no code lens in Restricted Mode');
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>Skill: Preview');
    await page.waitForTimeout(1000);
    const rows = await page.locator('.quick-input-list .monaco-list-row', { hasText: /Skill: Preview/ }).count();
    if (rows !== 0) throw new Error('the preview commands are offered in Restricted Mode');
    await input.fill('>Skill LSP: Restart');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Skill LSP: Restart Server' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    pass('the preview commands are hidden in Restricted Mode (Restart Server is not)');
  }
  if (SCENARIO !== 'main' && SCENARIO !== 'bundled') {
    await page.screenshot({ path: join(ART, `vscode-e2e-${SCENARIO}.png`) });
    throw DONE;
  }

  // 4. code lens from the server
  const lens = page.locator('.codelens-decoration').first();
  await page.locator('.editor-instance .monaco-editor').first().click({ position: { x: 300, y: 200 } });
  await lens.waitFor({ state: 'visible', timeout: 30_000 }).catch(async () => {
    // lenses are requested again when the editor changes: nudge it once
    say('no code lens yet: typing and undoing a space to refresh');
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+Z');
    await lens.waitFor({ state: 'visible', timeout: 30_000 });
  });
  // The decoration shows before its text is rendered (a CI run read it empty once): read it
  // until it says something, for at most 10 s.
  let lensText = '';
  for (const until = Date.now() + 10_000; !lensText.trim() && Date.now() < until;) {
    lensText = norm(await lens.innerText());
    if (!lensText.trim()) await page.waitForTimeout(100);
  }
  if (!/Preview activation/i.test(lensText)) throw new Error(`code lens says "${lensText}"`);
  pass(`code lens: "${lensText.replace(/\s+/g, ' ').trim()}"`);

  // 5. Skill: Preview Activation from the command palette
  await page.locator('.editor-instance .monaco-editor').first().click({ position: { x: 300, y: 200 } });
  await runCommand('Skill: Preview Activation');
  const pick = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'skill-tool' }).first();
  await pick.waitFor({ state: 'visible' });
  pass('dialect QuickPick shown');
  await page.keyboard.press('Enter'); // default dialect (first)
  const argBox = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: /arguments/i }).waitFor({ state: 'visible' });
  await argBox.waitFor({ state: 'visible' });
  pass('arguments InputBox shown');
  await page.keyboard.press('Enter'); // no arguments
  const previewTab = page.locator('.tabs-container .tab', { hasText: /\(skill-tool\)\.md/ }).first();
  await previewTab.waitFor({ state: 'visible', timeout: 30_000 });
  const tabTitle = norm(await previewTab.innerText()).trim().split('\n')[0];
  // the preview is the active editor of the group it opened in (beside the SKILL.md)
  const group = page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: /\(skill-tool\)\.md/ }) }).first();
  const lines = group.locator('.monaco-editor .view-lines').first();
  // Compared without whitespace: Monaco renders only visible lines and may wrap them.
  const squash = (s) => s.replace(/[\s\u00a0]+/g, '');
  await page.waitForFunction(
    ([exp]) =>
      [...document.querySelectorAll('.editor-group-container .monaco-editor .view-lines')].some((el) =>
        el.innerText.replace(/[\s\u00a0]+/g, '').includes(exp),
      ),
    [squash(expected)],
    { timeout: 30_000 },
  );
  const previewText = await editorText(lines);
  say(`preview "${tabTitle}" (first lines):\n${previewText.split('\n').slice(0, 12).map((l) => `        | ${l}`).join('\n')}`);
  if (!squash(previewText).includes(squash(expected))) throw new Error(`the preview does not contain ${JSON.stringify(expected)}`);
  const groups = await page.locator('.editor-group-container').count();
  pass(`Skill: Preview Activation opened "${tabTitle}" beside the editor (${groups} editor groups) with the activation text`);
  // read-only virtual document
  const readonly = await group.locator('.monaco-editor textarea').first().getAttribute('aria-readonly').catch(() => null);
  if (readonly === 'true') pass('the preview is read-only');
  await shot();
  pass(`screenshot ${SHOT}`);
  // The platform .vsix: diagnostics, code lens and the preview came from its own server.
  if (SCENARIO === 'bundled') throw DONE;

  // 6. the catalog code lens routes to the catalog preview (middleware)
  const skillTab = page.locator('.tabs-container .tab', { hasText: /^(SKILL|skill)\.md/ }).first();
  await skillTab.click();
  const catalogLens = page.locator('.codelens-decoration a', { hasText: /catalog/i }).first();
  if ((await catalogLens.count()) > 0) {
    await catalogLens.click();
    await page.locator('.tabs-container .tab', { hasText: /catalog \(/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
    pass('clicking the catalog code lens opened the catalog preview');
  } else {
    say('no catalog code lens found: skipped the lens click check');
  }
  await page.locator('.tabs-container .tab', { hasText: /\(skill-tool\)\.md/ }).first().click().catch(() => undefined);
  await shot();

  // 7. a settings change reaches the running server (no restart): profile → status bar
  // (written to the workspace's .vscode/settings.json: VS Code watches workspace files on
  // disk, while code-server does not notice outside writes to the user settings file)
  {
    const dir = join(WS, '.vscode');
    mkdirSync(dir, { recursive: true });
    const wsSettings = join(dir, 'settings.json');
    const settings = { 'skillLsp.profile': 'claude-code' };
    writeFileSync(wsSettings, JSON.stringify(settings, null, 2));
    const changed = page.locator('.statusbar-item', { hasText: /claude-code\s*·\s*\d+\s+skills?/ }).first();
    await changed.waitFor({ state: 'visible', timeout: 30_000 });
    pass(`skillLsp.profile changed in .vscode/settings.json: status bar now "${norm((await changed.innerText()).trim())}"`);
    settings['skillLsp.profile'] = 'skill-tool';
    writeFileSync(wsSettings, JSON.stringify(settings, null, 2));
    await page.locator('.statusbar-item', { hasText: /skill-tool\s*·\s*\d+\s+skills?/ }).first().waitFor({ state: 'visible', timeout: 30_000 });
  }

  // 8. a valid skill: its "Preview activation" code lens opens the activation text
  const good = process.env.E2E_GOOD_SKILL;
  const goodExpect = process.env.E2E_GOOD_EXPECT;
  if (good && goodExpect) {
    await runCommand('View: Close All Editor Groups');
    await page.waitForFunction(() => document.querySelectorAll('.tabs-container .tab').length === 0, null, { timeout: 10_000 });
    await openFile(good);
    const goodLens = page.locator('.editor-group-container.active .codelens-decoration', { hasText: 'Preview activation' }).first();
    await goodLens.waitFor({ state: 'visible', timeout: 30_000 });
    say(`code lens on ${good}: "${norm(await goodLens.innerText()).replace(/\s+/g, ' ').trim()}"`);
    await goodLens.locator('a', { hasText: 'Preview activation' }).first().click();
    await page.waitForFunction(
      ([exp]) =>
        [...document.querySelectorAll('.editor-group-container .monaco-editor .view-lines')].some((el) =>
          el.innerText.replace(/[\s\u00a0]+/g, '').includes(exp),
        ),
      [squash(goodExpect)],
      { timeout: 30_000 },
    );
    const goodTab = norm(await page.locator('.tabs-container .tab.active').last().innerText()).split('\n')[0];
    pass(`clicking "Preview activation" on ${good} opened "${goodTab}" with the activation text`);
    await page.screenshot({ path: join(ART, 'vscode-e2e-lens.png') }).catch(() => undefined);

    // 9. saving the SKILL.md refreshes the open preview
    const marker = `E2E refresh marker ${Date.now()}`;
    const skillEditor = page.locator('.editor-group-container', { has: page.locator('.tab.active', { hasText: /^(SKILL|skill)\.md/ }) }).first();
    await skillEditor.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(marker);
    await page.keyboard.press('Control+S');
    await page.waitForFunction(
      ([exp]) =>
        [...document.querySelectorAll('.editor-group-container .monaco-editor .view-lines')].filter((el) =>
          el.innerText.replace(/[\s\u00a0]+/g, '').includes(exp),
        ).length >= 2,
      [squash(marker)],
      { timeout: 30_000 },
    );
    pass('saving the SKILL.md refreshed the open activation preview');
  }

  // 10. rename a skill (F2 on a mention): the folder, its name and every mention change on disk
  {
    const skills = join(WS, '.claude', 'skills');
    const caller = join(skills, 'e2e-rename-caller', 'SKILL.md');
    if (existsSync(caller)) {
      await runCommand('View: Close All Editor Groups');
      await openFile('.claude/skills/e2e-rename-caller/SKILL.md');
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      // Find puts the cursor at the end of the match, inside the mention.
      await page.keyboard.press('Control+F');
      await page.keyboard.type('$e2e-rename-target');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await page.keyboard.press('F2');
      const box = page.locator('.rename-box input, .rename-input').first();
      await box.waitFor({ state: 'visible', timeout: 30_000 });
      await box.fill('e2e-shipped');
      await page.keyboard.press('Enter');
      const moved = join(skills, 'e2e-shipped', 'SKILL.md');
      const deadline = Date.now() + 30_000;
      while (!existsSync(moved) && Date.now() < deadline) await page.waitForTimeout(200);
      if (!existsSync(moved)) throw new Error('rename: the folder e2e-shipped/ did not appear');
      await runCommand('File: Save All Files');
      const done = Date.now() + 30_000;
      const ok = () =>
        readFileSync(moved, 'utf8').includes('name: e2e-shipped\n') &&
        ['Skill(e2e-shipped)', '`/e2e-shipped`', '$e2e-shipped;', '(../e2e-shipped/SKILL.md)'].every((m) =>
          readFileSync(caller, 'utf8').includes(m),
        );
      while (!ok() && Date.now() < done) await page.waitForTimeout(200);
      if (!ok()) throw new Error(`rename: files on disk not updated:\n${readFileSync(caller, 'utf8')}`);
      if (existsSync(join(skills, 'e2e-rename-target'))) throw new Error('rename: the old folder is still there');
      pass('F2 on a mention renamed the skill: folder, name and every mention changed on disk');
      await runCommand('View: Focus Problems');
      const staleRows = async () =>
        (await page.locator('.markers-panel .monaco-list-row').allInnerTexts())
          .map(norm)
          .filter((r) => r.includes('e2e-rename-target') || (r.includes('e2e-shipped') && /UNKNOWN_SKILL|BROKEN_LINK/.test(r)));
      let stale = await staleRows();
      const until = Date.now() + 30_000;
      while (stale.length && Date.now() < until) {
        await page.waitForTimeout(500);
        stale = await staleRows();
      }
      if (stale.length) throw new Error(`rename: stale diagnostics: ${stale.join(' | ')}`);
      pass('no diagnostic of the old name or folder is left in the Problems panel');
    }
  }
} catch (e) {
  if (e !== DONE) {
  failed = true;
  console.error(`    FAIL: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  await shot();
  writeFileSync(join(ART, 'vscode-e2e.html'), await page.content().catch(() => ''));
  if (consoleErrors.length) console.error(`    browser console errors (last 5):\n      ${consoleErrors.slice(-5).join('\n      ')}`);
  }
} finally {
  await context.close();
}
say(`scenario ${SCENARIO}: ${results.length} checks ok${failed ? ", then one check FAILED" : ""}`);
process.exit(failed ? 1 : 0);
