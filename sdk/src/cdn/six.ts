// The CDN's six.js: the six elements in one file with one copy of Lit, without the viewer
// (<reaction-block>, block.js): what the loader gives a page with a form and a comment or Q&A,
// where one file weighs less than their files in shared/ (src/cdn/loader.ts).
import '../components/comment/comment.js';
import '../components/qna/qna.js';
import '../components/like/like.js';
import '../components/button/button.js';
import '../components/ab/ab.js';
import '../components/form/form.js';
