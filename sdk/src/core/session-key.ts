// A module of its own so that a page which only needs the key (the dashboard's landing asks
// "could this visitor be signed in?") does not load the sealed store with it (core/storage.ts).

/**
 * Where a project's Supabase session is kept (sealed). The dashboard's client (auth-js) keeps
 * its session under the same key, so on the dashboard's origin the owner signed in there is
 * signed in in the blocks too (/block/), and signing out in one signs out the other. The project
 * URL is part of the key: a block pointed at another project never sees this session.
 */
export const sessionKey = (projectUrl: string): string =>
  'reaction-blocks.session:' + projectUrl.replace(/\/+$/, '');
