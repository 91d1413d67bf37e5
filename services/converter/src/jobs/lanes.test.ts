import { laneOf, Lanes } from './lanes';

describe('lanes', () => {
  it('puts images and profile pictures apart from documents', () => {
    expect(laneOf({ format: 'png', purpose: 'doc' })).toBe('image');
    expect(laneOf({ format: 'svg', purpose: 'doc' })).toBe('image');
    expect(laneOf({ format: 'jpeg', purpose: 'displayImage' })).toBe('image');
    expect(laneOf({ format: 'docx', purpose: 'doc' })).toBe('document');
    expect(laneOf({ format: 'pdf', purpose: 'doc' })).toBe('document');
  });

  it('one job per owner per lane, and no more than the lane has slots', () => {
    const lanes = new Lanes({ image: 2, document: 2 });
    const a1 = lanes.tryEnter('document', 'a');
    expect(a1).not.toBeNull();
    expect(lanes.tryEnter('document', 'a')).toBeNull(); // a's second document waits
    expect(lanes.tryEnter('image', 'a')).not.toBeNull(); // a's image does not wait behind it
    const b1 = lanes.tryEnter('document', 'b');
    expect(b1).not.toBeNull(); // another person runs at once
    expect(lanes.tryEnter('document', 'c')).toBeNull(); // lane full
    a1!();
    a1!(); // releasing twice frees one slot only
    expect(lanes.tryEnter('document', 'a')).not.toBeNull();
    expect(lanes.tryEnter('document', 'c')).toBeNull();
    b1!();
    expect(lanes.tryEnter('document', undefined)).not.toBeNull();
    expect(lanes.concurrency).toBe(6);
  });
});
