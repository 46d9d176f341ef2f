// A visitor's short fields as the database checks them (private.check_visitor_fields and
// check_visitor_urls, visitor-checks.sql; supabase/tests/contracts.test.ts runs both on the same
// cases). A module of its own: only the SDK's writer code (loaded on a visitor's first interaction)
// imports it, so no element carries it before its first data (limits.ts comes with the elements).

/**
 * A visitor's colour (the avatar an element draws for a writer without a photo): #rgb or
 * #rrggbb. The database's private.is_visitor_color, which every visitor write checks.
 */
export const VISITOR_COLOR_RE = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): in a visitor's name
 * or link they make it read as something else ('\u202eOwner' shows as 'renwO'). The database's
 * private.has_bidi_control refuses them in names and links; the elements take them out of a name
 * before they send it (sdk/src/core/identity.ts sendable) and refuse such a link as it is typed.
 */
export const BIDI_CONTROL_RE = /[\u202a-\u202e\u2066-\u2069]/;
export const BIDI_CONTROLS_RE = /[\u202a-\u202e\u2066-\u2069]/g;
