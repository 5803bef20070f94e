// Writes schemas/request.schema.json, result.schema.json and statement.schema.json from the built zod
// schemas (run `npm run build` first), so the JSON Schemas shipped to worker authors never drift from the code.

import { mkdir, writeFile } from "node:fs/promises";
import { requestJsonSchema, resultJsonSchema, statementJsonSchema } from "../dist/protocol/json-schema.js";

const outDir = new URL("../schemas/", import.meta.url);
await mkdir(outDir, { recursive: true });
for (const [name, schema] of [
  ["request.schema.json", requestJsonSchema()],
  ["result.schema.json", resultJsonSchema()],
  ["statement.schema.json", statementJsonSchema()],
]) {
  await writeFile(new URL(name, outDir), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schemas/${name}`);
}
