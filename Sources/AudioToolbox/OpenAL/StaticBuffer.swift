// AL_EXT_STATIC_BUFFER (OpenAL/oalStaticBufferExtension.h). OpenAL Soft 1.19.1 declares
// alBufferDataStatic in <AL/alext.h> but does not implement it, and cannot play from memory it
// does not own: the data is copied into the buffer, as alBufferData does, so the app's memory may
// go whenever the app likes (Apple asks that it stay until the buffer is deleted, which is still
// right here), and later changes to it are not heard.
import COpenAL

/// `alBufferDataStatic`: alBufferData's copy, its errors OpenAL Soft's; NULL data is
/// `AL_INVALID_VALUE` (recorded by alBufferData's own size check, after its buffer check, so an
/// unknown buffer is still `AL_INVALID_NAME`).
@c @implementation
public func alBufferDataStatic(_ bid: ALint, _ format: ALenum, _ data: UnsafeMutableRawPointer!, _ size: ALsizei, _ freq: ALsizei) {
    let buffer = ALuint(bitPattern: bid)
    guard let data else {
        alBufferData(buffer, format, nil, -1, freq)
        return
    }
    alBufferData(buffer, format, data, size, freq)
}
