package voices

import "fmt"

// pullFormat settles the device format of an engine on a Pull: the rate
// the Pull says its reader reads at, float32 stereo, when d.Format is
// the zero value; a d.Format at another rate is refused, since the
// reader would play every sound pitched (44.1 kHz read as 48 kHz is a
// 1 kHz tone at 919 Hz).
func pullFormat(d *EngineDesc) error {
	p, ok := d.Device.(*Pull)
	if !ok {
		return nil
	}
	if d.Format == (Format{}) {
		d.Format = Format{Rate: p.rate, Channels: 2, Encoding: EncodingFloat32LE}
		return nil
	}
	if d.Format.Rate != p.rate {
		return fmt.Errorf("%w: EngineDesc.Format is %v, but its Pull is read at %d Hz: every sound would play pitched (make them agree, or leave Format zero)",
			ErrInvalid, d.Format, p.rate)
	}
	return nil
}
