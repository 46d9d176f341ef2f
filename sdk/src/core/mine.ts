// The visitor's own part of a block with messages, for the elements that show messages (comment,
// qna, the block element): core/view.ts, a chunk loaded only for a visitor with a session
// (BlockElement.mine); an element without messages neither carries nor loads it (like and A/B
// take core/marks.ts's meOnly, base.ts).
export const mineWithMessages = () => import('./view.js').then((m) => m.messagesMine);
