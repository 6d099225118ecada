import type { Ad } from '@yueman/contract';
import { Swiper } from 'antd-mobile';
import { memo } from 'react';
import { useNavigate } from 'react-router';
import { imageUrl } from '../lib/images.ts';
import './ad-carousel.css';

/** Ad carousel (spec sections 3 and 9): autoplay every 2500 ms, looping; a tap follows the ad's jump type. */
export const AdCarousel = memo(function AdCarousel({ ads, eager = true }: { ads: Ad[]; eager?: boolean }) {
  const navigate = useNavigate();
  if (ads.length === 0) return null;
  const open = (ad: Ad) => {
    switch (ad.jumpType) {
      case -1:
        if (ad.url.startsWith('/')) navigate(ad.url);
        else if (ad.url) location.href = ad.url;
        break;
      case -2:
        if (ad.url) window.open(ad.url, '_blank');
        break;
      case 2:
        navigate(`/book/${ad.bizId}`);
        break;
      case 3:
        navigate('/purchase');
        break;
    }
  };
  return (
    <div className="ad-carousel" data-testid="ad-carousel">
      <Swiper autoplay={ads.length > 1} autoplayInterval={2500} loop={ads.length > 1}>
        {ads.map((ad, i) => (
          <Swiper.Item key={ad.imgPath}>
            <button type="button" className="ad-slide" onClick={() => open(ad)}>
              <img
                src={imageUrl(ad.imgPath, 500)}
                width={750}
                height={300}
                alt="广告"
                loading={eager && i === 0 ? 'eager' : 'lazy'}
                fetchPriority={eager && i === 0 ? 'high' : 'auto'}
                decoding="async"
              />
            </button>
          </Swiper.Item>
        ))}
      </Swiper>
    </div>
  );
});
