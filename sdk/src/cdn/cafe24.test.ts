import { expect } from '@open-wc/testing';
import { cafe24ProductNo, cafe24Screen, placeBlocks } from './cafe24.js';

const at = (href: string) => {
  const u = new URL(href, 'https://myshop.cafe24.com');
  return { pathname: u.pathname, search: u.search };
};

const project = { url: 'https://abc.supabase.co', key: 'anon' };
const OWNER = '00000000-0000-4000-8000-000000000001';
const B1 = '00000000-0000-4000-8000-0000000000b1';
const B2 = '00000000-0000-4000-8000-0000000000b2';
const B3 = '00000000-0000-4000-8000-0000000000b3';

/** A placement on the product pages: after its usual place, or after `selector`. */
const onProduct = (block_id: string, type: string, per_product = false, selector = '') => ({
  block_id,
  type,
  location: 'product_detail' as const,
  per_product,
  selector,
});

/** A page shaped like a Cafe24 skin's product page. */
function productPage(): Document {
  const doc = document.implementation.createHTMLDocument('shop');
  doc.body.innerHTML = `<div id="contents">
    <div class="xans-element- xans-product xans-product-detail"><h1>Shirt</h1></div>
    <div id="prdDetail"><p>Details</p></div>
    <div id="prdReview"></div>
  </div>`;
  return doc;
}

/** The owner's `placements` put on a product page (product `productNo`, null when unread). */
function onProductPage(
  productNo: number | null,
  placements: Parameters<typeof placeBlocks>[1]['placements'],
) {
  const doc = productPage();
  const n = placeBlocks(doc, { owner_id: OWNER, placements }, 'product_detail', productNo, project);
  return { doc, n };
}

describe('cafe24 loader', () => {
  it('reads the product number of both address forms, desktop and mobile, and nothing else', () => {
    expect(cafe24ProductNo(at('/product/detail.html?product_no=12&cate_no=4'))).to.equal(12);
    expect(cafe24ProductNo(at('/product/linen-shirt/12/category/4/display/1/'))).to.equal(12);
    expect(cafe24ProductNo(at('/m/product/detail.html?product_no=7'))).to.equal(7);
    expect(cafe24ProductNo(at('/m/product/%EC%85%94%EC%B8%A0/7/'))).to.equal(7);
    // a shop served under a prefix (the local stand-in's /cafe24/<mall>/)
    expect(cafe24ProductNo(at('/cafe24/myshop/product/detail.html?product_no=12'))).to.equal(12);
    expect(cafe24ProductNo(at('/product/detail.html'))).to.equal(null);
    expect(cafe24ProductNo(at('/product/detail.html?product_no=1x'))).to.equal(null);
    expect(cafe24ProductNo(at('/board/product/list.html?board_no=4'))).to.equal(null);
    expect(cafe24Screen(at('/'))).to.equal('main');
    expect(cafe24Screen(at('/index.html'))).to.equal('main');
    expect(cafe24Screen(at('/m/'))).to.equal('main');
    expect(cafe24Screen(at('/cafe24/myshop/index.html'))).to.equal('main');
    expect(cafe24Screen(at('/board/free/list.html'))).to.equal(null);
    expect(cafe24Screen(at('/myshop/'))).to.equal(null);
    expect(cafe24Screen(at('/product/detail.html?product_no=3'))).to.equal('product_detail');
    expect(cafe24Screen(at('/order/basket.html'))).to.equal(null);
  });

  it('puts the screen’s blocks after their places in order, a thread per product where asked', () => {
    const { doc, n } = onProductPage(12, [
      onProduct(B1, 'comment', true),
      onProduct(B2, 'like', true),
      { block_id: B3, type: 'form', location: 'main', per_product: false, selector: '' },
      onProduct(B3, 'button', false, '.xans-product-detail h1'),
    ]);
    expect(n).to.equal(3);
    const detail = doc.getElementById('prdDetail')!;
    const [first, second] = [
      detail.nextElementSibling!,
      detail.nextElementSibling!.nextElementSibling!,
    ];
    expect(first.localName).to.equal('reaction-comment');
    expect(second.localName).to.equal('reaction-like');
    expect(second.nextElementSibling!.id).to.equal('prdReview');
    expect(first.getAttribute('page-key')).to.equal('cafe24:product:12');
    expect(first.getAttribute('block-id')).to.equal(B1);
    expect(first.getAttribute('owner-id')).to.equal(OWNER);
    expect(first.getAttribute('project-url')).to.equal(project.url);
    expect(first.getAttribute('anon-key')).to.equal(project.key);
    const button = doc.querySelector('.xans-product-detail h1')!.nextElementSibling!;
    expect(button.localName).to.equal('reaction-button');
    expect(button.hasAttribute('page-key')).to.equal(false);
    expect(doc.querySelector('reaction-form')).to.equal(null);
  });

  it('never shows one shared thread on a product page it cannot read, nor lets a bad place or type through', () => {
    const { doc, n } = onProductPage(null, [
      onProduct(B1, 'comment', true),
      onProduct(B2, 'qna', false, '[[['),
      onProduct(B3, 'img src=x onerror=alert(1)'),
    ]);
    // the per-product thread is left out; the bad selector falls back to the usual place
    expect(n).to.equal(1);
    expect(doc.querySelector('reaction-comment')).to.equal(null);
    expect(doc.getElementById('prdDetail')!.nextElementSibling!.localName).to.equal('reaction-qna');
    expect(doc.querySelectorAll('img').length).to.equal(0);
    // an owner with no paid plan gets no owner id: nothing is placed
    expect(
      placeBlocks(productPage(), { owner_id: null, placements: [] }, 'main', null, project),
    ).to.equal(0);
  });
});
