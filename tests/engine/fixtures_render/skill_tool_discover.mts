// Prints the skill tool reference registry's catalog entries for the given roots as JSON.
// The reference is avifenesh/tools packages/skill (not on npm). To regenerate
// skill_tool_registry_odd.json: copy its src/{registry,frontmatter,constants,types}.ts next to
// this file under src/, rewrite their `./x.js` imports to `./x.ts` and the constructor's
// parameter property to a plain field (Node's type stripping allows neither), then run
//   node skill_tool_discover.mts ROOT        (Node 24: TypeScript types are stripped)
// on a root holding tests/odd_skills.py's skills.
import { FilesystemSkillRegistry } from "./src/registry.ts";

const entries = await new FilesystemSkillRegistry(process.argv.slice(2)).discover();
console.log(JSON.stringify(entries.map((e) => ({
  name: e.name,
  description: e.description,
  dir: e.dir,
  rootIndex: e.rootIndex,
  error: e.frontmatter["__skill_error"] ?? null,
  code: e.frontmatter["__skill_error_code"] ?? null,
  shadowed: e.shadowed ?? null,
}))));
