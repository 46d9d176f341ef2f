import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import QRCode from 'qrcode';
import { describe, expect, it, vi } from 'vitest';
import type { BlockRow } from '../../../lib/db-types';
import { renderWithProviders } from '../../../test/utils';
import { BlockLinkDialog } from './block-link-dialog';

const block: BlockRow = {
  id: 'block-9',
  owner_id: 'owner-1',
  type: 'form',
  name: '설문: 봄/가을',
  created_at: '2024-01-01T00:00:00Z',
  response_count: 0,
  new_response_count: 0,
  tags: [],
  deactivated: false,
};

const publicUrl = `${window.location.origin}/block/?id=owner-1&block_id=block-9`;

describe('BlockLinkDialog', () => {
  it('shows the QR code of the public link as a 128 px image with an alt text', async () => {
    renderWithProviders(<BlockLinkDialog block={block} onClose={() => {}} />);
    expect(screen.getByLabelText('Public link')).toHaveProperty('value', publicUrl);
    const img = await screen.findByRole('img', {
      name: 'QR code of the public link of 설문: 봄/가을',
    });
    const src = img.getAttribute('src')!;
    expect(src).toMatch(/^data:image\/png;base64,/);
    expect(img.getAttribute('width')).toBe('128');
    // The PNG itself is 128 x 128 (IHDR width and height) and encodes the public link.
    const png = Uint8Array.from(atob(src.split(',')[1]!), (c) => c.charCodeAt(0));
    const view = new DataView(png.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([128, 128]);
    expect(src).toBe(await QRCode.toDataURL(publicUrl, { width: 128, errorCorrectionLevel: 'M' }));
    expect(screen.getByRole('button', { name: 'Download QR code' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it('downloads the PNG as qrcode_{blockName}.png', async () => {
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this);
    });
    renderWithProviders(<BlockLinkDialog block={block} onClose={() => {}} />);
    const img = await screen.findByRole('img', { name: /QR code/ });
    fireEvent.click(screen.getByRole('button', { name: 'Download QR code' }));

    expect(clicks).toHaveLength(1);
    // "/" is not allowed in file names; Korean text and the colon-free rest are kept.
    expect(clicks[0]!.download).toBe('qrcode_설문_ 봄_가을.png');
    expect(clicks[0]!.href).toBe(img.getAttribute('src'));
  });

  it('names an unnamed block Untitled in the file name', async () => {
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this.download);
    });
    renderWithProviders(<BlockLinkDialog block={{ ...block, name: '' }} onClose={() => {}} />);
    await screen.findByRole('img', { name: /QR code/ });
    fireEvent.click(screen.getByRole('button', { name: 'Download QR code' }));
    expect(clicks).toEqual(['qrcode_Untitled.png']);
  });

  it('names each Copy after what it copies, en and ko (rev-owner D11)', async () => {
    const { setLanguage } = await import('../../../lib/i18n');
    renderWithProviders(<BlockLinkDialog block={block} onClose={() => {}} />);
    const copies = () =>
      screen
        .getAllByRole('button')
        .map((b) => b.textContent)
        .filter((text) => /Copy|복사/.test(text ?? ''));
    expect(copies()).toEqual(['Copy link', 'Copy embed code']);
    await act(() => setLanguage('ko', false));
    expect(copies()).toEqual(['링크 복사', '코드 복사']);
    await waitFor(() => expect(screen.getByRole('img')).toBeTruthy());
  });

  it('keeps the copy and snippet features', async () => {
    renderWithProviders(<BlockLinkDialog block={block} onClose={() => {}} />);
    expect(screen.getByLabelText('Embed code')).toHaveProperty(
      'value',
      expect.stringContaining('<reaction-form'),
    );
    expect(screen.getByRole('button', { name: 'Download handout' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('img', { name: /QR code/ })).toBeTruthy());
  });
});
