// The entry point of build/ajv.bundle.js ("npm run build"): ajv ships no
// browser build, so esbuild bundles its draft 2020-12 validator into a
// global, RefAjv, for index.html to load as a plain script.
export { default as Ajv2020 } from "ajv/dist/2020";
