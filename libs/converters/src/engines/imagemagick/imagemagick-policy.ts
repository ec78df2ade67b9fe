/**
 * Fileshift's ImageMagick policy, written to the directory MAGICK_CONFIGURE_PATH names: every coder, delegate,
 * filter and indirect path (@file) is refused but the raster coders the engine names; resources are bounded.
 * The runtime also names the coder of every input and output (BMP:file), so the content never picks one.
 */
export const IMAGEMAGICK_POLICY = `<?xml version="1.0" encoding="UTF-8"?>
<policymap>
  <policy domain="resource" name="memory" value="256MiB"/>
  <policy domain="resource" name="map" value="512MiB"/>
  <policy domain="resource" name="width" value="16KP"/>
  <policy domain="resource" name="height" value="16KP"/>
  <policy domain="resource" name="area" value="100MP"/>
  <policy domain="resource" name="disk" value="1GiB"/>
  <policy domain="resource" name="time" value="120"/>
  <policy domain="resource" name="thread" value="1"/>
  <policy domain="delegate" rights="none" pattern="*"/>
  <policy domain="filter" rights="none" pattern="*"/>
  <policy domain="path" rights="none" pattern="@*"/>
  <policy domain="coder" rights="none" pattern="*"/>
  <policy domain="coder" rights="read|write" pattern="{BMP,BMP2,BMP3,ICO,ICON,TGA,PNM,PBM,PGM,PPM,PSD,JP2,HEIC,PCX,XPM,PNG,PNG8,PNG24,PNG32,PNG48,PNG64,PNG00,JPEG,JPG}"/>
</policymap>
`;
