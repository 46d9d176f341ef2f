// The CDN's block.js: <reaction-block> with the six elements it may render, in one file. The loader
// gives a page with several block types (or a <reaction-block>) this one file, so it defines them
// all with one copy of Lit. (From npm, <reaction-block> loads only the type it shows.)
import '../components/block/block.js';
import '../components/comment/comment.js';
import '../components/qna/qna.js';
import '../components/like/like.js';
import '../components/button/button.js';
import '../components/ab/ab.js';
import '../components/form/form.js';
