// Runs @google/gemini-cli-core's own skill discovery, catalog renderer and
// activate_skill tool on a workspace.  argv: <package dir> <workspace> <skills.json> <out.json>
// (skills.json: a JSON list of the names to activate, one after another).
// HOME must already point at the case's fresh home.  Writes one JSON object to
// <out.json> (the package logs parser warnings to stdout).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, workspace, namesFile, outFile] = process.argv.slice(2);
const names = JSON.parse(fs.readFileSync(namesFile, 'utf8'));
const load = (rel) => import(pathToFileURL(path.join(pkg, 'dist', 'src', rel)).href);

const { SkillManager } = await load('skills/skillManager.js');
const { Storage } = await load('config/storage.js');
const { renderAgentSkills } = await load('prompts/snippets.js');
const { ActivateSkillTool } = await load('tools/activate-skill.js');

const manager = new SkillManager();
await manager.discoverSkills(new Storage(workspace), [], true);
const skills = manager.getSkills();
// Same mapping as promptProvider.js before it calls renderAgentSkills.
const listed = skills.map((s) => ({ name: s.name, description: s.description, location: s.location }));
const catalogAll = renderAgentSkills(listed);
const catalogUser = renderAgentSkills(listed.filter((_, i) => !skills[i].isBuiltin));
const builtins = skills.filter((s) => s.isBuiltin).map((s) => ({
  name: s.name,
  entry_chars: renderAgentSkills([{ name: s.name, description: s.description, location: s.location }]).length,
  description_chars: s.description.length,
}));

const config = {
  getSkillManager: () => manager,
  getWorkspaceContext: () => ({ addDirectory() {} }),
};
const tool = new ActivateSkillTool(config, undefined);
const activations = [];
for (const skillName of names) {
  try {
    const invocation = tool.build({ name: skillName });
    const result = await invocation.execute({ abortSignal: new AbortController().signal });
    activations.push(result.llmContent);
  } catch (err) {
    activations.push(`(build failed) ${err.message}`);
  }
}
fs.writeFileSync(outFile, JSON.stringify({
  catalog_all_chars: catalogAll.length,
  catalog: catalogUser,
  activations,
  builtins,
  skills: skills.filter((s) => !s.isBuiltin).map((s) => ({ name: s.name, location: s.location })),
}));
