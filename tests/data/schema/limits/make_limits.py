#!/usr/bin/env python3
"""Writes one schema per documented provider limit (tests/spec/tst_lint.cpp reads them).

Each file: the limit's name, the lint rule that names it, the engine types it applies to, the
pointers (into the schema) lint must name, the schema, and instances the original schema
accepts ("valid") and refuses ("invalid"). Run it from this folder to regenerate."""
import json

ALL = ["openai", "openai-responses", "anthropic", "gemini", "openai-compatible", "replay"]
OPENAI = ["openai", "openai-responses"]


def closed(properties, **extra):
    out = {"type": "object", "properties": properties, "required": sorted(properties),
           "additionalProperties": False}
    out.update(extra)
    return out


def write(name, limit, rule, engines, pointers, schema, valid, invalid):
    document = {"limit": limit, "rule": rule, "engines": engines, "pointers": pointers,
                "schema": schema, "valid": valid, "invalid": invalid}
    small = len(json.dumps(document)) < 20000
    with open(name + ".json", "w") as f:
        json.dump(document, f, indent=1 if small else None)
        f.write("\n")


write("openai-required", "OpenAI strict: every property is required", "strict-required", OPENAI,
      ["/properties/note"],
      {"type": "object", "properties": {"title": {"type": "string"}, "note": {"type": "string"}},
       "required": ["title"], "additionalProperties": False},
      [{"title": "a"}, {"title": "a", "note": "b"}], [{"note": "b"}, {"title": 1}])

write("openai-additional-properties", "OpenAI strict: additionalProperties false on every object",
      "strict-additional-properties", OPENAI, ["/properties/meta"],
      closed({"meta": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]}}),
      [{"meta": {"k": "x"}}, {"meta": {"k": "x", "extra": 1}}], [{"meta": {}}, {"meta": {"k": "x"}, "x": 1}])

write("root-any-of", "a root that is one object, not anyOf", "schema-root-object", ALL, [""],
      {"anyOf": [closed({"a": {"type": "string"}}), closed({"b": {"type": "integer"}})]},
      [{"a": "x"}, {"b": 2}], [{"a": 1}, {}, "text"])

write("openai-properties-5000", "OpenAI strict: at most 5,000 properties", "strict-size", OPENAI, [""],
      closed({"p%d" % i: {"type": "integer"} for i in range(5001)}),
      [{"p%d" % i: i for i in range(5001)}], [{"p0": 1}])

nested = {"type": "string"}
for _ in range(11):
    nested = closed({"a": nested})
write("openai-depth-10", "OpenAI strict: at most 10 levels of nesting", "strict-depth", OPENAI,
      ["/properties/a" * 5, "/properties/a" * 10], nested,
      [json.loads('{"a":' * 11 + '"x"' + '}' * 11)], [json.loads('{"a":' * 11 + '1' + '}' * 11), {}])

write("openai-enum-1000", "OpenAI strict: at most 1,000 enum values", "strict-size", OPENAI, [""],
      closed({"code": {"type": "string", "enum": ["c%d" % i for i in range(1001)]}}),
      [{"code": "c0"}, {"code": "c1000"}], [{"code": "c1001"}, {"code": 7}])

write("openai-name-chars-120000", "OpenAI strict: 120,000 characters of names, enum values and consts",
      "strict-size", OPENAI, [""],
      closed({"label": {"type": "string", "enum": [("v%03d" % i) * 60 for i in range(500)]}}),
      [{"label": "v000" * 60}], [{"label": "v000"}])

write("openai-unsupported-keyword", "OpenAI strict: keywords it does not support", "strict-unsupported-keyword",
      OPENAI, ["/properties/tags/patternProperties"],
      closed({"tags": {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
                       "additionalProperties": False}}),
      [{"tags": {}}, {"tags": {"x-a": "b"}}], [{"tags": {"x-a": 1}}, {"tags": {"y": "b"}}])

write("anthropic-numeric-and-length", "Anthropic: no numeric or length constraints",
      "anthropic-unsupported-keyword", ["anthropic"],
      ["/properties/name/maxLength", "/properties/score/minimum", "/properties/score/maximum"],
      closed({"score": {"type": "number", "minimum": 0, "maximum": 10},
              "name": {"type": "string", "maxLength": 8}}),
      [{"score": 3, "name": "abc"}], [{"score": 11, "name": "abc"}, {"score": 1, "name": "much too long"}])

write("anthropic-min-items", "Anthropic: minItems only 0 or 1", "anthropic-min-items", ["anthropic"],
      ["/properties/steps/minItems"],
      closed({"steps": {"type": "array", "items": {"type": "string"}, "minItems": 2}}),
      [{"steps": ["a", "b"]}], [{"steps": ["a"]}, {"steps": []}])

tree = {"type": "object", "$defs": {"node": closed({"name": {"type": "string"},
                                                     "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}})},
        "properties": {"root": {"$ref": "#/$defs/node"}}, "required": ["root"], "additionalProperties": False}
tree_valid = [{"root": {"name": "a", "children": [{"name": "b", "children": []}]}}]
tree_invalid = [{"root": {"name": "a", "children": [{"name": 1, "children": []}]}}, {"root": {"name": "a"}}]
write("anthropic-recursive", "Anthropic: no recursive schemas", "anthropic-recursive-ref", ["anthropic"],
      ["/$defs/node/properties/children/items/$ref"], tree, tree_valid, tree_invalid)
write("gemini-recursive", "Gemini: no recursive schemas", "gemini-recursive-ref", ["gemini"],
      ["/$defs/node/properties/children/items/$ref"], tree, tree_valid, tree_invalid)
