/** VIP is on while vip_end is in the future (docs/api.md section 3); the wallet extends it when VIP is bought. */
export const isVip = (user: { vipEnd: Date | null }, now = new Date()) =>
  user.vipEnd !== null && user.vipEnd.getTime() > now.getTime();
