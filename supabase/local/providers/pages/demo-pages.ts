// The demo's letter sources: a Typedream newsletter page and a Brunch article written to be read,
// with their sites' look (a stylesheet, navigation, a comment box the letter leaves out) and their
// images. The demo owner's letters are made from them through the real pipeline (supabase/local/
// demo-letters.ts), and the landing's /send page shows them becoming letters
// (scripts/letter-samples.ts). The test fixtures in fixtures.ts stay small and hostile on purpose.
import { png } from './fixtures.ts';

export const DEMO_TYPEDREAM_PAGE_URL = 'https://reaction-demo.typedream.app/newsletter';
/** An article of the fixture Brunch writer (@letterwriter), so their verified profile owns it. */
export const DEMO_BRUNCH_ARTICLE_URL = 'https://brunch.co.kr/@letterwriter/13';

/** Image paths (host + path, as the fake serves them) and their pictures. */
export const DEMO_IMAGES: Record<string, () => Buffer> = {
  'api.typedream.com/v0/document/public/newsletter-cover.png': () =>
    png(1200, 560, [46, 84, 150], [126, 176, 214]),
  'api.typedream.com/v0/document/public/newsletter-chart.png': () =>
    png(1000, 420, [242, 186, 92], [224, 110, 72]),
  'img1.daumcdn.net/thumb/R1280x0/demo-cover.png': () =>
    png(1280, 640, [108, 146, 96], [214, 226, 170]),
};

const TYPEDREAM_STYLE = `body{margin:0;font-family:Inter,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d1d1f;background:#fbfaf7}
nav{display:flex;gap:20px;align-items:center;padding:18px 32px;border-bottom:1px solid #e8e5de;background:#fff}
nav .brand{font-weight:700;margin-right:auto;color:#1d1d1f;text-decoration:none}
nav a{color:#55524b;text-decoration:none;font-size:15px}
main{max-width:720px;margin:0 auto;padding:40px 24px 64px}
h1{font-size:40px;line-height:1.15;letter-spacing:-.02em;margin:0 0 12px}
.lede{font-size:20px;color:#55524b;margin:0 0 28px}
h2{font-size:26px;margin:40px 0 12px}
p,li{font-size:17px;line-height:1.7}
figure{margin:28px 0}figure img{width:100%;border-radius:12px;display:block}
figcaption{font-size:14px;color:#7a766d;margin-top:8px}
blockquote{margin:24px 0;padding:4px 0 4px 18px;border-left:4px solid #2e5496;color:#3b3935;font-size:19px}
.button{display:inline-block;padding:12px 20px;border-radius:8px;background:#2e5496;color:#fff;text-decoration:none}
.signup{margin-top:48px;padding:24px;border-radius:12px;background:#eef1f7}
footer{padding:24px 32px;color:#7a766d;font-size:14px;border-top:1px solid #e8e5de}`;

export const DEMO_TYPEDREAM_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>November notes — Reaction demo</title><meta property="og:title" content="November notes: what changed this month">
<style>${TYPEDREAM_STYLE}</style>
<script src="/_next/static/chunks/main.js"></script></head>
<body><div id="__next"><nav><a class="brand" href="/">Reaction demo</a><a href="/newsletter">Newsletter</a><a href="/about">About</a><a href="/changelog">Changelog</a></nav>
<main><h1>November notes</h1>
<p class="lede">What changed this month, what we learned from your replies, and one small thing to try on your own site.</p>
<figure><img src="https://api.typedream.com/v0/document/public/newsletter-cover.png" alt="A blue horizon over the sea"><figcaption>The view from our desk this month.</figcaption></figure>
<h2>Comments that load before you scroll</h2>
<p>The comment block now loads its code only when a reader gets near it. A post with <strong>three blocks</strong> loads about as fast as a post with none, and a reader on a slow phone sees the article first.</p>
<ul><li>Likes and counts answer from a cache close to the reader.</li><li>Forms remember a draft if the reader leaves and comes back.</li><li>Every block reads Korean and English.</li></ul>
<h2>What you told us</h2>
<p>Forty of you answered last month's form. The most wanted thing was a way to <em>thank</em> the people who answer. So a form can now send a letter by itself to whoever leaves their address.</p>
<blockquote>Small letters, read by the right people, beat big campaigns read by no one.</blockquote>
<figure><img src="https://api.typedream.com/v0/document/public/newsletter-chart.png" alt="Replies per week, rising"><figcaption>Replies per week since we started writing back.</figcaption></figure>
<h2>One thing to try</h2>
<p>Add a like button under your last post and look at the count in a week. Read <a href="https://reaction-demo.typedream.app/changelog">the changelog</a> for everything else.</p>
<p><a class="button" href="https://reaction-demo.typedream.app/changelog">Read the changelog</a></p>
<div class="signup"><form action="/subscribe"><label>Your email <input type="email" name="email"></label> <button>Subscribe</button></form></div>
</main><footer>Made with Typedream</footer></div></body></html>`;

const BRUNCH_STYLE = `body{margin:0;font-family:'Apple SD Gothic Neo','Noto Sans KR','Malgun Gothic',sans-serif;color:#333;background:#fff}
.wrap_cover{position:relative;height:320px;background:linear-gradient(#6c9260,#d6e2aa);color:#fff;display:flex;flex-direction:column;justify-content:flex-end;padding:32px}
.cover_title{font-size:36px;font-weight:400;margin:0 0 8px}.cover_writer{font-size:15px;opacity:.9}
.wrap_body{max-width:700px;margin:0 auto;padding:40px 24px 64px}
.wrap_body h4{font-size:22px;font-weight:500;margin:36px 0 12px}
.wrap_body p{font-size:17px;line-height:2;margin:0 0 20px;color:#333}
.wrap_item img{width:100%;display:block;margin:24px 0 6px}
.wrap_item .desc_img{font-size:13px;color:#959595;text-align:center}
blockquote{margin:28px 0;padding:0 20px;border-left:2px solid #333;font-size:18px;color:#555;line-height:1.9}
.wrap_comment{max-width:700px;margin:0 auto;padding:24px;border-top:1px solid #eee;color:#959595}`;

export const DEMO_BRUNCH_HTML = `<!doctype html><html lang="ko"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>작은 블로그에 답장이 온다는 것</title><meta property="og:title" content="작은 블로그에 답장이 온다는 것">
<style>${BRUNCH_STYLE}</style>
<script>window.__brunch = { track: true };</script></head>
<body><div class="wrap_cover"><h1 class="cover_title">작은 블로그에 답장이 온다는 것</h1><span class="cover_writer">by 레터 작가</span></div>
<div class="wrap_body text_align_left">
<p>블로그를 오래 쓰다 보면 글이 어디로 가는지 모를 때가 있습니다. 조회수는 오르는데 아무도 말을 걸지 않습니다.</p>
<h4>첫 번째 답장</h4>
<p>지난달 글 아래에 <b>좋아요 버튼</b> 하나와 짧은 질문 하나를 달았습니다. 일주일 만에 마흔 분이 답을 남겼고, 그중 열두 분이 이메일 주소를 적어 주셨습니다.</p>
<div class="wrap_item item_type_img"><img src="//img1.daumcdn.net/thumb/R1280x0/demo-cover.png" alt="창밖의 초록 들판"><span class="desc_img">답장을 읽던 아침</span></div>
<h4>편지로 돌려드리기</h4>
<p>주소를 남겨 주신 분들께 이 글을 <i>편지</i>로 보냅니다. 글은 그대로, 광고도 추적도 없이, 받은 분이 언제든 수신을 거부할 수 있게요.</p>
<blockquote>좋은 편지는 짧고, 받는 사람을 압니다.</blockquote>
<p>다음 글은 <a href="https://brunch.co.kr/@letterwriter">브런치</a>에서 먼저 읽으실 수 있습니다. 끝까지 읽어 주셔서 고맙습니다.</p>
</div>
<div class="wrap_comment"><form action="/comment"><textarea placeholder="댓글을 남겨 주세요"></textarea></form></div>
</body></html>`;

/** The demo pages by host + path, as the `/pages` fake serves them. */
export const DEMO_PAGES: Record<string, string> = {
  'reaction-demo.typedream.app/newsletter': DEMO_TYPEDREAM_HTML,
  'brunch.co.kr/@letterwriter/13': DEMO_BRUNCH_HTML,
};
