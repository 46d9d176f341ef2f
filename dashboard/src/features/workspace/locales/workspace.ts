// workspace texts of the workspace (en, ko), under the `workspace.` key prefix. Spec wording verbatim.
export const en = {};
export const ko: typeof en = {};
