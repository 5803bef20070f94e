import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { requestJsonSchema, resultJsonSchema, statementJsonSchema } from "../../src/protocol/json-schema.js";

const committed = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../schemas/${name}`, import.meta.url), "utf8"));

describe("published JSON Schemas", () => {
  it("schemas/request.schema.json matches the zod schema (run npm run build && npm run schemas)", () => {
    expect(committed("request.schema.json")).toEqual(requestJsonSchema());
  });

  it("schemas/result.schema.json matches the zod schema (run npm run build && npm run schemas)", () => {
    expect(committed("result.schema.json")).toEqual(resultJsonSchema());
  });

  it("schemas/statement.schema.json matches the zod schema (run npm run build && npm run schemas)", () => {
    expect(committed("statement.schema.json")).toEqual(statementJsonSchema());
  });

  it("closes the receipt predicate, and leaves the in-toto statement open as in-toto's parsing rules say", () => {
    const statement = statementJsonSchema() as {
      additionalProperties: unknown;
      properties: { predicate: { additionalProperties: unknown } };
    };
    expect(statement.properties.predicate.additionalProperties).toBe(false);
    expect(statement.additionalProperties).toEqual({});
  });

  it("closes every object to unknown keys", () => {
    const open: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== "object" || node === null) return;
      const record = node as Record<string, unknown>;
      if (record.type === "object" && record.additionalProperties !== false) open.push(path);
      for (const [key, value] of Object.entries(record)) walk(value, `${path}/${key}`);
    };
    walk(requestJsonSchema(), "request");
    walk(resultJsonSchema(), "result");
    expect(open).toEqual([]);
  });

  it("states the rules zod refinements enforce where JSON Schema can", () => {
    const result = resultJsonSchema() as { then: unknown; else: unknown };
    expect(result.then).toEqual({ required: ["error"] });
    expect(result.else).toEqual({ not: { required: ["error"] } });
    const request = requestJsonSchema() as { properties: { actions: { uniqueItems?: boolean } } };
    expect(request.properties.actions.uniqueItems).toBe(true);
  });
});
