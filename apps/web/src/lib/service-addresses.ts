import type { CommonInfo } from '@yueman/contract';

/** The QQ chat link of a customer-service QQ number (phones open it in QQ). */
export const qqChatLink = (qq: string) => `mqqwpa://im/chat?chat_type=wpa&uin=${encodeURIComponent(qq)}`;

/**
 * The customer-service addresses the service itself names in common info. A page that takes a service address from
 * its own URL (the report page's serviceUrl) links only one of these: anything else would let a crafted link put
 * a stranger's "客服" address in front of the reader.
 */
export function serviceAddresses(info: CommonInfo | null): string[] {
  const addresses: string[] = [];
  if (info?.customerServiceQQ) addresses.push(qqChatLink(info.customerServiceQQ));
  if (info?.customerServiceEmail) addresses.push(`mailto:${info.customerServiceEmail}`);
  return addresses;
}
