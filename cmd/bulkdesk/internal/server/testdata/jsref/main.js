// A plain JavaScript importer of transfers files, as a team would write one
// with SheetJS and ajv: the reference BenchmarkConsoleVersusReference
// measures the console against. It reads a workbook, a CSV file or a
// request body, maps the columns to elements by their headers (field
// paths, as the console's templates name them), validates every element
// against the console's own schema, and shows a summary and the first 50
// rows. Performance marks "ref:interactive", "ref:file-chosen",
// "ref:parsed" (the file's elements read), "ref:validated" and
// "ref:shown" time it; body[data-shown] counts the files shown.
"use strict";

const WINDOW = 50;

// The columns of the table, and of a request body's elements: the header
// of the console's transfers template.
const COLUMNS = [
  "profileId", "tag", "source.type", "source.id", "destination.type", "destination.id",
  "destinationAmount.currency", "destinationAmount.amount", "description", "scheduledTimestamp",
];

const input = document.getElementById("request-file");
let validate; // the schema's compiled validator
let schema;
let shown = 0;

// typeOf returns the JSON type the schema gives a field path of an
// element's requestBody, following $refs, so that cells are converted as
// the schema asks rather than by a second, hand-written list.
function typeOf(path) {
  let s = schema.properties.requestBody;
  for (const name of path.split(".")) {
    s = deref(s);
    s = s && s.properties && s.properties[name];
    if (!s) return undefined;
  }
  return deref(s).type;
}

function deref(s) {
  while (s && s.$ref) s = schema.$defs[s.$ref.replace("#/$defs/", "")];
  return s;
}

// convert turns a cell into the value its field takes: text for strings
// (a spreadsheet may hold an id as a number), a number for an integer
// written as digits (a CSV file holds only text). Anything else is left
// for the schema to refuse.
function convert(v, type) {
  if (typeof v === "string") v = v.trim();
  if (type === "string" && typeof v === "number") return String(v);
  if ((type === "integer" || type === "number") && typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

// elementsOfRows maps a sheet's rows (the first one the header) to
// request elements, a field per known header; empty cells leave the field
// out.
function elementsOfRows(rows) {
  const header = (rows[0] || []).map((h) => String(h ?? "").trim());
  const fields = header.map((h) => (COLUMNS.includes(h) ? { path: h.split("."), type: typeOf(h) } : null));
  const out = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r];
    if (!row || row.every((v) => v === null || v === "")) continue;
    const body = {};
    fields.forEach((f, c) => {
      const v = row[c];
      if (!f || v === null || v === undefined || v === "") return;
      let o = body;
      for (const name of f.path.slice(0, -1)) o = o[name] ??= {};
      o[f.path[f.path.length - 1]] = convert(v, f.type);
    });
    out.push({ pathParams: {}, requestBody: body });
  }
  return out;
}

function read(name, buf) {
  if (/\.json$/i.test(name)) {
    const v = JSON.parse(new TextDecoder().decode(buf));
    if (!Array.isArray(v)) throw new Error("a request body is an array of elements");
    return v;
  }
  // raw: a CSV file's cells stay text (SheetJS would turn "0012" into 12);
  // convert gives each field its type from the schema.
  const wb = XLSX.read(new Uint8Array(buf), { type: "array", raw: true, dense: true });
  const ws = wb.Sheets[wb.SheetNames[0]];
  return elementsOfRows(XLSX.utils.sheet_to_json(ws, { header: 1, raw: true, defval: null }));
}

function valueAt(element, path) {
  let v = element && element.requestBody;
  for (const name of path.split(".")) v = v == null ? undefined : v[name];
  return v;
}

// show draws the summary and the first WINDOW rows, the cells with an
// error marked.
function show(name, elements, errors) {
  let invalid = 0, count = 0;
  for (const e of errors) if (e) { invalid++; count += e.length; }
  const summary = document.getElementById("summary");
  summary.replaceChildren();
  for (const [id, label, value] of [
    ["count-elements", "Elements", elements.length], ["count-valid", "Valid", elements.length - invalid],
    ["count-invalid", "Invalid", invalid], ["count-errors", "Errors", count],
  ]) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = label;
    dd.id = id;
    dd.textContent = value.toLocaleString("en");
    summary.append(dt, dd);
  }
  const grid = document.getElementById("grid");
  const head = document.createElement("thead"), body = document.createElement("tbody");
  const hr = head.insertRow();
  for (const c of ["#", ...COLUMNS]) {
    const th = document.createElement("th");
    th.textContent = c;
    hr.append(th);
  }
  for (let i = 0; i < Math.min(WINDOW, elements.length); i++) {
    const tr = body.insertRow();
    tr.insertCell().textContent = i + 1;
    const bad = new Set((errors[i] || []).map((e) => e.instancePath.replace(/^\/requestBody\//, "").replaceAll("/", ".")));
    for (const c of COLUMNS) {
      const td = tr.insertCell();
      const v = valueAt(elements[i], c);
      td.textContent = v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
      if (bad.has(c)) td.className = "bad";
    }
  }
  grid.replaceChildren(head, body);
  document.title = name;
}

async function fileChosen() {
  performance.mark("ref:file-chosen");
  const file = input.files[0];
  if (!file) return;
  const elements = read(file.name, await file.arrayBuffer());
  performance.mark("ref:parsed");
  const errors = elements.map((e) => (validate(e) ? null : validate.errors));
  performance.mark("ref:validated");
  show(file.name, elements, errors);
  performance.mark("ref:shown");
  document.body.dataset.shown = String(++shown);
}

async function start() {
  schema = await (await fetch("schema/transfers.json")).json();
  // int64: the console's validator ignores the format too (it checks
  // "integer"); strict off, as the schema carries keywords of its source.
  validate = new RefAjv.Ajv2020({ allErrors: true, strict: false, formats: { int64: true } }).compile(schema);
  input.addEventListener("change", () => fileChosen().catch((err) => {
    console.error(err);
    document.getElementById("summary").textContent = String(err);
  }));
  input.disabled = false;
  performance.mark("ref:interactive");
}

start();
