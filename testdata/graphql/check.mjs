// Reads an introspection result (file in argv[2]) and dashboard queries
// (*.graphql files in argv[3]), builds the client schema with graphql-js and
// validates every query against it. Prints one JSON line per query and
// exits 1 when any is invalid or the schema lacks what dashboards rely on.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { buildClientSchema, validate, parse, assertValidSchema, isNonNullType } from "graphql";

const introspection = JSON.parse(readFileSync(process.argv[2], "utf8"));
const schema = buildClientSchema(introspection.data ?? introspection);
assertValidSchema(schema);

let failed = 0;
const fail = (what) => { failed++; console.log(JSON.stringify({ ok: false, what })); };

// Relay shape: every connection has edges{cursor node}, pageInfo, totalCount.
for (const [name, type] of Object.entries(schema.getTypeMap())) {
  if (!name.endsWith("Connection")) continue;
  const f = type.getFields();
  for (const need of ["edges", "pageInfo", "totalCount", "nodes"]) if (!f[need]) fail(`${name}.${need} missing`);
  const edge = schema.getType(name.replace(/Connection$/, "Edge"));
  if (!edge || !edge.getFields().cursor || !edge.getFields().node) fail(`${name}: edge type lacks cursor/node`);
}
const node = schema.getType("Node");
if (!node || schema.getPossibleTypes(node).length < 5) fail("Node interface with five implementations");
if (!isNonNullType(schema.getQueryType().getFields().findings.type)) fail("Query.findings must be non-null");

const dir = process.argv[3];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".graphql")).sort()) {
  const errors = validate(schema, parse(readFileSync(join(dir, file), "utf8")));
  if (errors.length) fail(`${file}: ${errors.map((e) => e.message).join("; ")}`);
  else console.log(JSON.stringify({ ok: true, query: file }));
}
console.log(JSON.stringify({ types: Object.keys(schema.getTypeMap()).length, failed }));
process.exit(failed ? 1 : 0);
