export const priceLabel = (price: number) => (price === 0 ? '免费' : `${price}阅币`);
