// Checks a page's property values against its data source's schema the way Notion's API does
// (400 validation_error with a message naming the property), and turns accepted values into the
// shape Notion answers with. Select options that do not exist yet are created, as on Notion.
import { randomBytes } from 'node:crypto';
import { isObject } from '../http.ts';
import { READ_ONLY } from '../../../functions/_shared/notion-pages.ts';
import { richText, type DataSource, type SchemaProperty } from './model.ts';

export class NotionApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const invalid = (message: string) => new NotionApiError(400, 'validation_error', message);

const MAX_TEXT = 2000;
const MAX_ITEMS = 100;

/** A rich text array as sent: text items, each at most 2000 characters. */
function readRichText(value: unknown, path: string): Array<Record<string, unknown>> {
  if (!Array.isArray(value))
    throw invalid(`${path} should be an array, instead was \`${JSON.stringify(value)}\`.`);
  if (value.length > MAX_ITEMS)
    throw invalid(`${path}.length should be ≤ \`${MAX_ITEMS}\`, instead was \`${value.length}\`.`);
  return value.map((item, i) => {
    const text = isObject(item) && isObject(item.text) ? item.text : null;
    if (!text || typeof text.content !== 'string') {
      throw invalid(`${path}[${i}].text should be defined, instead was \`undefined\`.`);
    }
    if (text.content.length > MAX_TEXT) {
      throw invalid(
        `${path}[${i}].text.content.length should be ≤ \`${MAX_TEXT}\`, instead was \`${text.content.length}\`.`,
      );
    }
    return richText(text.content);
  });
}

function optionOf(prop: SchemaProperty, name: unknown, path: string) {
  if (typeof name !== 'string' || name.trim() === '')
    throw invalid(`${path}.name should be a non-empty string.`);
  if (name.includes(',')) throw invalid(`Select option names cannot contain commas: "${name}".`);
  if (name.length > 100)
    throw invalid(`${path}.name.length should be ≤ \`100\`, instead was \`${name.length}\`.`);
  prop.options ??= [];
  let option = prop.options.find((o) => o.name === name);
  if (!option) {
    option = { id: randomBytes(3).toString('base64url'), name, color: 'default' };
    prop.options.push(option);
  }
  return { id: option.id, name: option.name, color: option.color };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** One property's value, checked against its type; answers the stored value. */
function propertyValue(prop: SchemaProperty, raw: unknown, key: string): Record<string, unknown> {
  const path = `body.properties.${key}`;
  if (READ_ONLY.has(prop.type))
    throw invalid(`${prop.name} is a read-only property (${prop.type}).`);
  if (!isObject(raw))
    throw invalid(`${path} should be an object, instead was \`${JSON.stringify(raw)}\`.`);
  const keys = Object.keys(raw).filter((k) => k !== 'type' && k !== 'id');
  if (keys.length !== 1 || keys[0] !== prop.type) {
    throw invalid(`${prop.name} is expected to be ${prop.type}.`);
  }
  const value = raw[prop.type];
  const out = (v: unknown) => ({ id: prop.id, type: prop.type, [prop.type]: v });
  switch (prop.type) {
    case 'title':
    case 'rich_text':
      return out(readRichText(value, `${path}.${prop.type}`));
    case 'number':
      if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
        throw invalid(
          `${path}.number should be a number or \`null\`, instead was \`${JSON.stringify(value)}\`.`,
        );
      }
      return out(value);
    case 'checkbox':
      if (typeof value !== 'boolean') throw invalid(`${path}.checkbox should be a boolean.`);
      return out(value);
    case 'select':
    case 'status':
      if (value === null) return out(null);
      if (!isObject(value)) throw invalid(`${path}.${prop.type} should be an object or \`null\`.`);
      if (prop.type === 'status' && !prop.options?.some((o) => o.name === value.name)) {
        throw invalid(
          `Invalid status option. Status option "${String(value.name)}" does not exist".`,
        );
      }
      return out(optionOf(prop, value.name, `${path}.${prop.type}`));
    case 'multi_select':
      if (!Array.isArray(value)) throw invalid(`${path}.multi_select should be an array.`);
      return out(
        value.map((v, i) => optionOf(prop, isObject(v) ? v.name : v, `${path}.multi_select[${i}]`)),
      );
    case 'date':
      if (value === null) return out(null);
      if (!isObject(value) || typeof value.start !== 'string' || !ISO_DATE.test(value.start)) {
        throw invalid(`${path}.date.start should be a valid ISO 8601 date string.`);
      }
      return out({
        start: value.start,
        end: value.end ?? null,
        time_zone: value.time_zone ?? null,
      });
    case 'email':
    case 'phone_number':
    case 'url':
      if (value !== null && typeof value !== 'string') {
        throw invalid(`${path}.${prop.type} should be a string or \`null\`.`);
      }
      if (typeof value === 'string' && value.length > MAX_TEXT) {
        throw invalid(`${path}.${prop.type}.length should be ≤ \`${MAX_TEXT}\`.`);
      }
      return out(value);
    case 'people':
    case 'files':
    case 'relation':
      if (!Array.isArray(value)) throw invalid(`${path}.${prop.type} should be an array.`);
      if (value.length > 0)
        throw invalid(
          `${prop.name}: the local Notion fake accepts only an empty ${prop.type} list.`,
        );
      return out([]);
    default:
      throw invalid(`${prop.name} is expected to be ${prop.type}.`);
  }
}

/** The properties of a new row of `ds`, as stored; throws Notion's validation errors. */
export function rowProperties(
  ds: DataSource,
  raw: unknown,
): Record<string, Record<string, unknown>> {
  if (raw !== undefined && !isObject(raw)) throw invalid('body.properties should be an object.');
  const given = (raw ?? {}) as Record<string, unknown>;
  const stored: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(given)) {
    const prop = ds.properties.find((p) => p.name === key || p.id === key);
    if (!prop) throw invalid(`${key} is not a property that exists.`);
    stored[prop.name] = propertyValue(prop, value, key);
  }
  // every property is present in the answer, empty when not given
  for (const prop of ds.properties) {
    if (stored[prop.name]) continue;
    const empty: Record<string, unknown> = {
      title: [],
      rich_text: [],
      number: null,
      select: null,
      status: null,
      multi_select: [],
      date: null,
      people: [],
      files: [],
      checkbox: false,
      url: null,
      email: null,
      phone_number: null,
      relation: [],
    };
    if (prop.type in empty)
      stored[prop.name] = { id: prop.id, type: prop.type, [prop.type]: empty[prop.type] };
  }
  return stored;
}

/** A page under a page has only a title. */
export function childPageProperties(raw: unknown): Record<string, Record<string, unknown>> {
  if (!isObject(raw)) throw invalid('body.properties should be an object.');
  const keys = Object.keys(raw);
  if (keys.length !== 1 || (keys[0] !== 'title' && keys[0] !== 'Name')) {
    throw invalid('A page whose parent is a page can only have a title property.');
  }
  const value = raw[keys[0]!];
  const title = isObject(value) && 'title' in value ? value.title : value;
  return {
    title: {
      id: 'title',
      type: 'title',
      title: readRichText(title, 'body.properties.title.title'),
    },
  };
}

/** Children blocks: at most 100, each with a type and its object. */
export function readChildren(raw: unknown): unknown[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid('body.children should be an array.');
  if (raw.length > MAX_ITEMS)
    throw invalid(
      `body.children.length should be ≤ \`${MAX_ITEMS}\`, instead was \`${raw.length}\`.`,
    );
  raw.forEach((block, i) => {
    if (!isObject(block) || typeof block.type !== 'string' || !isObject(block[block.type])) {
      throw invalid(`body.children[${i}] should be a block object with its type.`);
    }
    const rich = (block[block.type] as Record<string, unknown>).rich_text;
    if (rich !== undefined) readRichText(rich, `body.children[${i}].${block.type}.rich_text`);
  });
  return raw;
}
