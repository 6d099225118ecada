import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { homePath } from '../../lib/paths.ts';
import './support.css';

/** /pc: PC browsers are sent here (spec section 1) to open the site on a phone by its QR code. */
export default function PcPage() {
  const address = `${location.origin}${homePath()}`;
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    QRCode.toDataURL(address, { width: 480, margin: 1, color: { dark: '#222222', light: '#ffffff' } })
      .then((url) => live && setQr(url))
      .catch((err: unknown) => console.error('qr code failed', err));
    return () => {
      live = false;
    };
  }, [address]);

  return (
    <main className="pc-page">
      <div className="pc-card">
        <div className="pc-brand">
          <img src="/icon-192.png" alt="" width={48} height={48} />
          <div>
            <h1>阅漫</h1>
            <p>海量正版漫画，随时随地看</p>
          </div>
        </div>
        <div className="pc-qr">
          {qr ? (
            <img src={qr} alt="阅漫手机版二维码" width={240} height={240} />
          ) : (
            <div className="pc-qr-wait" />
          )}
        </div>
        <p className="pc-hint">请使用手机扫描二维码访问</p>
        <p className="pc-sub">阅漫是手机网站，请在手机浏览器中打开以下地址：</p>
        <p className="pc-address">{address}</p>
      </div>
    </main>
  );
}
