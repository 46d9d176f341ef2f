// editor texts of the workspace (en, ko), under the `editor.` key prefix. Spec wording verbatim.
export const en = {};
export const ko: typeof en = {};
