// results texts of the workspace (en, ko), under the `results.` key prefix. Spec wording verbatim.
export const en = {};
export const ko: typeof en = {};
