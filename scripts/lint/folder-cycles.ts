/**
 * Fails on a cycle between folders on value imports: files collapse to `src/modules/<x>`, `src/<x>`,
 * `workflows/<x>` and `activities`, and a folder that can reach itself through imports that survive compilation
 * is a knot no file-level check sees. Type-only imports are left out: they vanish at run time and are how
 * workflow code names its activities. `--types` counts them too, to measure.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root } from '../lib/paths';

const SOURCE_TREES = ['src', 'workflows', 'activities'];

const withTypes = process.argv.includes('--types');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The folder a file counts in, or undefined for the files at the top of `src/` (each its own node). */
function folderOf(file: string): string {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] === 'src' && parts[1] === 'modules') return parts.slice(0, 3).join('/');
  if ((parts[0] === 'src' || parts[0] === 'workflows') && parts.length > 2) return parts.slice(0, 2).join('/');
  if (parts[0] === 'activities') return 'activities';
  return parts.join('/');
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** Specifiers a file imports at run time (or all of them with `--types`). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (withTypes || !typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (withTypes || !node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (withTypes && ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const edges = new Map<string, Set<string>>();
for (const file of SOURCE_TREES.flatMap((tree) => filesUnder(path.join(root, tree)))) {
  const from = folderOf(file);
  if (!edges.has(from)) edges.set(from, new Set());
  for (const specifier of importsOf(file)) {
    const target = resolve(file, specifier);
    if (target === undefined || !SOURCE_TREES.some((tree) => target.startsWith(path.join(root, tree) + path.sep))) continue;
    const to = folderOf(target);
    if (to !== from) edges.get(from)!.add(to);
  }
}

/** Tarjan's strongly connected components; every one with more than one folder is a cycle. */
function components(): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!indices.has(node)) connect(node);
  return found;
}

const cycles = components();
const folders = [...edges.keys()].filter((node) => !node.endsWith('.ts')).length;
if (cycles.length === 0) {
  console.log(`folder cycles: none among ${folders} folders (${withTypes ? 'all' : 'value'} imports)`);
} else {
  for (const cycle of cycles) {
    const members = new Set(cycle);
    console.log(`folder cycle of ${cycle.length}:`);
    for (const from of cycle) {
      const inside = [...(edges.get(from) ?? [])].filter((to) => members.has(to)).sort();
      console.log(`  ${from} -> ${inside.join(', ')}`);
    }
  }
  const knotted = cycles.reduce((sum, cycle) => sum + cycle.length, 0);
  console.log(`folder cycles: ${cycles.length}, holding ${knotted} of ${folders} folders (${withTypes ? 'all' : 'value'} imports)`);
  process.exitCode = 1;
}
