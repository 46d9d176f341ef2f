/** Every problem is logged with this prefix; nothing is ever thrown into the host page. */
export const log = (...args: unknown[]): void => console.warn('[reaction-blocks]', ...args);
