import { describe, expect, it } from 'vitest';
import { pageAlt } from './reader-helpers.ts';

describe('page alternative text', () => {
  it('names the book, the chapter and the page', () => {
    expect(pageAlt('星河旅人', 3, 7)).toBe('《星河旅人》 第3话 第7页');
  });
  it('names each slice of a page cut in two', () => {
    expect(pageAlt('双页', 1, 2, 1, 2)).toBe('《双页》 第1话 第2页 1/2');
    expect(pageAlt('双页', 1, 2, 2, 2)).toBe('《双页》 第1话 第2页 2/2');
  });
  it('leaves out the book while its name is unknown', () => {
    expect(pageAlt('', 1, 1)).toBe('第1话 第1页');
  });
});
