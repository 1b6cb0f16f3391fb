import AudioToolbox
import Foundation
import Testing

/// Every way a caller or an input procedure can get Audio Converter Services wrong: Apple's code
/// comes back, never a trap, a hang or a non-finite sample.
@Suite struct ConverterErrorTests {
    static func newConverter(_ from: AudioStreamBasicDescription, _ to: AudioStreamBasicDescription) -> (OSStatus, AudioConverterRef?) {
        var source = from, destination = to
        var converter: AudioConverterRef?
        let status = AudioConverterNew(&source, &destination, &converter)
        return (status, converter)
    }

    @Test func nullPointersAreParameterErrors() throws {
        var format = pcmFormat(bits: 16)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(nil, &format, &converter) == kAudio_ParamError)
        #expect(AudioConverterNew(&format, nil, &converter) == kAudio_ParamError)
        #expect(AudioConverterNew(&format, &format, nil) == kAudio_ParamError)
        #expect(AudioConverterNewSpecific(&format, &format, 1, nil, &converter) == kAudio_ParamError)
        #expect(AudioConverterDispose(nil) == kAudio_ParamError)
        #expect(AudioConverterReset(nil) == kAudio_ParamError)
        #expect(AudioConverterGetPropertyInfo(nil, kAudioConverterPrimeInfo, nil, nil) == kAudio_ParamError)
        #expect(AudioConverterNew(&format, &format, &converter) == noErr)
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        var size: UInt32 = 4
        #expect(AudioConverterGetProperty(id, kAudioConverterSampleRateConverterQuality, nil, &size) == kAudio_ParamError)
        #expect(AudioConverterGetProperty(id, kAudioConverterSampleRateConverterQuality, &size, nil) == kAudio_ParamError)
        #expect(AudioConverterSetProperty(id, kAudioConverterSampleRateConverterQuality, 4, nil) == kAudio_ParamError)
        var packets: UInt32 = 10
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        #expect(AudioConverterFillComplexBuffer(id, nil, nil, &packets, list.unsafeMutablePointer, nil) == kAudio_ParamError)
        #expect(AudioConverterFillComplexBuffer(id, feedProc, nil, nil, list.unsafeMutablePointer, nil) == kAudio_ParamError)
        #expect(AudioConverterFillComplexBuffer(id, feedProc, nil, &packets, nil, nil) == kAudio_ParamError)
        #expect(AudioConverterConvertBuffer(id, 4, nil, &size, nil) == kAudio_ParamError)
        #expect(AudioConverterConvertComplexBuffer(id, 1, nil, nil) == kAudio_ParamError)
    }

    @Test func aDisposedConverterIsStaleEverywhere() throws {
        let (status, converter) = Self.newConverter(pcmFormat(bits: 16), pcmFormat(bits: 32, float: true))
        #expect(status == noErr)
        let id = try #require(converter)
        #expect(AudioConverterDispose(id) == noErr)
        #expect(AudioConverterDispose(id) == kAudio_ParamError)
        #expect(AudioConverterReset(id) == kAudio_ParamError)
        var quality: UInt32 = 0
        var size: UInt32 = 4
        #expect(AudioConverterGetProperty(id, kAudioConverterSampleRateConverterQuality, &size, &quality) == kAudio_ParamError)
        let feed = ConverterFeed(pcm: [[0, 0, 0, 0]], bytesPerFrame: 4)
        #expect(drain(id, feed, bufferCount: 1, bytesPerPacket: 8).statuses == [kAudio_ParamError])
        // A handle that was never given out, and an AudioFileID, are not converters either.
        #expect(AudioConverterReset(OpaquePointer(bitPattern: 0x7777_0001)!) == kAudio_ParamError)
    }

    @Test func unsupportedFormatsAndRatesAreApplesCodes() {
        let ac3 = AudioStreamBasicDescription(mSampleRate: 48_000, mFormatID: kAudioFormatAC3, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1536, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        #expect(Self.newConverter(ac3, pcmFormat(bits: 16)).0 == kAudioConverterErr_FormatNotSupported)
        #expect(Self.newConverter(pcmFormat(bits: 24, float: true), pcmFormat(bits: 16)).0 == kAudioConverterErr_FormatNotSupported)
        var aac = ac3
        aac.mFormatID = kAudioFormatMPEG4AAC
        aac.mFramesPerPacket = 1024
        var law = pcmFormat(rate: 48_000, channels: 2, bits: 8)
        law.mFormatID = kAudioFormatULaw
        #expect(Self.newConverter(aac, law).0 == kAudioConverterErr_FormatNotSupported)   // compressed to compressed
        aac.mSampleRate = 44_056
        #expect(Self.newConverter(pcmFormat(rate: 44_056, bits: 16), aac).0 == kAudioConverterErr_OutputSampleRateOutOfRange)
        #expect(Self.newConverter(pcmFormat(rate: -1, bits: 16), pcmFormat(bits: 16)).0 == kAudioConverterErr_InputSampleRateOutOfRange)
        #expect(Self.newConverter(pcmFormat(rate: .nan, bits: 16), pcmFormat(bits: 16)).0 == kAudioConverterErr_InputSampleRateOutOfRange)
        #expect(Self.newConverter(pcmFormat(bits: 16), pcmFormat(rate: 1e9, bits: 16)).0 == kAudioConverterErr_OutputSampleRateOutOfRange)
        // A hardware codec named by NewSpecific is not here; a software one is.
        var from = pcmFormat(bits: 16), to = aac
        to.mSampleRate = 44_100
        var converter: AudioConverterRef?
        var hardware = AudioClassDescription(mType: kAudioEncoderComponentType, mSubType: kAudioFormatMPEG4AAC, mManufacturer: kAppleHardwareAudioCodecManufacturer)
        #expect(AudioConverterNewSpecific(&from, &to, 1, &hardware, &converter) == kAudioConverterErr_FormatNotSupported)
        var software = hardware
        software.mManufacturer = kAppleSoftwareAudioCodecManufacturer
        #expect(AudioConverterNewSpecific(&from, &to, 1, &software, &converter) == noErr)
        #expect(AudioConverterDispose(converter!) == noErr)
    }

    @Test func wrongPropertySizesAndValues() throws {
        let (_, converter) = Self.newConverter(pcmFormat(bits: 16), pcmFormat(rate: 48_000, bits: 16))
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        var small: UInt16 = 0
        var size = UInt32(2)
        #expect(AudioConverterGetProperty(id, kAudioConverterSampleRateConverterQuality, &size, &small) == kAudioConverterErr_BadPropertySizeError)
        #expect(AudioConverterSetProperty(id, kAudioConverterSampleRateConverterQuality, 2, &small) == kAudioConverterErr_BadPropertySizeError)
        var big: UInt32 = 500
        #expect(AudioConverterSetProperty(id, kAudioConverterSampleRateConverterQuality, 4, &big) == kAudio_ParamError)
        var method: UInt32 = 7
        #expect(AudioConverterSetProperty(id, kAudioConverterPrimeMethod, 4, &method) == kAudio_ParamError)
        var value: UInt32 = 0
        size = 4
        #expect(AudioConverterGetProperty(id, 0x7A7A_7A7A, &size, &value) == kAudioConverterErr_PropertyNotSupported)
        var asbd = AudioStreamBasicDescription()
        #expect(AudioConverterSetProperty(id, kAudioConverterCurrentInputStreamDescription, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &asbd)
                == kAudioConverterErr_PropertyNotSupported)
        var writable = false
        #expect(AudioConverterGetPropertyInfo(id, kAudioConverterSampleRateConverterQuality, &size, &writable) == noErr)
        #expect(size == 4 && writable)
        #expect(AudioConverterGetPropertyInfo(id, kAudioConverterCompressionMagicCookie, &size, &writable) == kAudioConverterErr_PropertyNotSupported)
    }

    @Test(arguments: [ConverterFeed.Lie.morePacketsThanTheBuffer, .hugeCount, .wrongBufferCount])
    func aLyingPCMInputProcedureIsRefused(_ lie: ConverterFeed.Lie) throws {
        let (_, converter) = Self.newConverter(pcmFormat(bits: 16), pcmFormat(bits: 32, float: true))
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        let feed = ConverterFeed(pcm: [[UInt8](repeating: 1, count: 4_000)], bytesPerFrame: 4)
        feed.lie = lie
        let result = drain(id, feed, bufferCount: 1, bytesPerPacket: 8, chunk: 100)
        #expect(result.statuses.last == (lie == .wrongBufferCount ? kAudio_ParamError : kAudioConverterErr_InvalidInputSize))
    }

    @Test(arguments: [ConverterFeed.Lie.noDescriptions, .descriptionPastTheBuffer, .hugeCount])
    func aLyingPacketInputProcedureIsRefused(_ lie: ConverterFeed.Lie) throws {
        let aac = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 2, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let (status, converter) = Self.newConverter(aac, pcmFormat(bits: 16))
        #expect(status == noErr)
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        let feed = ConverterFeed(packets: Array(repeating: [UInt8](repeating: 0x21, count: 40), count: 10))
        feed.lie = lie
        let result = drain(id, feed, bufferCount: 1, bytesPerPacket: 4, chunk: 1024)
        #expect(result.statuses.last == (lie == .noDescriptions ? kAudioConverterErr_RequiresPacketDescriptionsError : kAudioConverterErr_InvalidInputSize))
    }

    /// An input procedure that leaves its descriptions in the converter's own array, then says it
    /// gave more packets than the converter asked for (and so than that array holds for this call):
    /// kAudioConverterErr_InvalidInputSize (fuzz-capi). Before, the converter read descriptions past
    /// those asked: stale ones of an earlier, larger call (decoded as if given, as here), or past
    /// its array's end (AddressSanitizer: heap-buffer-overflow).
    @Test func morePacketsThanTheConvertersOwnDescriptionsAreRefused() throws {
        let aac = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 2, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let (status, converter) = Self.newConverter(aac, pcmFormat(bits: 16))
        #expect(status == noErr)
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        final class State {
            var largestAsked: UInt32 = 0
            var lied = false
            var memory: UnsafeMutableRawPointer?
            deinit { memory?.deallocate() }
        }
        let state = State()
        let procedure: AudioConverterComplexInputDataProc = { _, ioNumberDataPackets, ioData, outDataPacketDescription, inUserData in
            let state = Unmanaged<State>.fromOpaque(inUserData!).takeUnretainedValue()
            let asked = ioNumberDataPackets.pointee
            // Once the converter's array has held three descriptions, a call asking fewer gets three packets.
            let lie = asked < 3 && state.largestAsked >= 3 && !state.lied
            state.largestAsked = max(state.largestAsked, asked)
            let count = Int(lie ? 3 : asked)
            state.memory?.deallocate()
            let memory = UnsafeMutableRawPointer.allocate(byteCount: count * 40, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0x21, count: count * 40)
            state.memory = memory
            let list = UnsafeMutableAudioBufferListPointer(ioData)
            list[0].mData = memory
            list[0].mDataByteSize = UInt32(count * 40)
            if let ours = outDataPacketDescription?.pointee {
                for i in 0..<min(count, Int(asked)) {
                    ours[i] = AudioStreamPacketDescription(mStartOffset: Int64(i * 40), mVariableFramesInPacket: 0, mDataByteSize: 40)
                }
            }
            state.lied = state.lied || lie
            ioNumberDataPackets.pointee = UInt32(count)
            return noErr
        }
        var output = [UInt8](repeating: 0, count: 8_192 * 4)
        var results: [OSStatus] = []
        for frames in [8_192, 1_024, 512, 1_024, 512] where !state.lied {
            let result = output.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(frames * 4),
                                                                                     mData: raw.baseAddress))
                var packets = UInt32(frames)
                return AudioConverterFillComplexBuffer(id, procedure, Unmanaged.passUnretained(state).toOpaque(), &packets, &list, nil)
            }
            results.append(result)
        }
        #expect(state.lied)
        #expect(results.last == kAudioConverterErr_InvalidInputSize, "\(results)")
    }

    @Test func anInputProcedureErrorStopsNowAndHandsBackWhatIsDone() throws {
        let (_, converter) = Self.newConverter(pcmFormat(channels: 1, bits: 16), pcmFormat(rate: 48_000, channels: 1, bits: 16))
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        let input = sine(frequency: 440, rate: 44_100, frames: 4_410).map { Int16($0 * 32_000) }
        let feed = ConverterFeed(pcm: [bytes(of: input)], bytesPerFrame: 2)
        feed.maximumPerCall = 300
        let noData = OSStatus(bitPattern: 0x6E6F_6474)   // 'nodt', the procedure's own code
        feed.failAfter = (packets: 900, status: noData)
        let result = drain(id, feed, bufferCount: 1, bytesPerPacket: 2, chunk: 2_000, stopOnError: false)
        // The first call returns the procedure's code with the frames converted so far.
        #expect(result.statuses.first == noData)
        #expect(result.sizes.first ?? 0 > 0, "the frames made before the error come back with it")
        // Nothing is lost: the stream resumes on the next call, and its length is whole.
        #expect(result.buffers[0].count / 2 == 4_800)
        // After the end, more calls give nothing and do not call the procedure.
        let calls = feed.calls
        var packets: UInt32 = 100
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        var room = [Int16](repeating: 0, count: 100)
        room.withUnsafeMutableBufferPointer { list[0] = AudioBuffer($0, numberOfChannels: 1) }
        #expect(AudioConverterFillComplexBuffer(id, feedProc, Unmanaged.passUnretained(feed).toOpaque(), &packets, list.unsafeMutablePointer, nil) == noErr)
        #expect(packets == 0 && feed.calls == calls)
        // Reset starts a new stream.
        #expect(AudioConverterReset(id) == noErr)
        packets = 100
        room.withUnsafeMutableBufferPointer { list[0] = AudioBuffer($0, numberOfChannels: 1) }
        _ = AudioConverterFillComplexBuffer(id, feedProc, Unmanaged.passUnretained(feed).toOpaque(), &packets, list.unsafeMutablePointer, nil)
        #expect(feed.calls > calls)
    }

    @Test func notNumbersNeverComeOut() throws {
        var wild = sine(frequency: 1_000, rate: 44_100, frames: 4_000)
        for i in stride(from: 0, to: wild.count, by: 97) { wild[i] = [Float.nan, .infinity, -.infinity, 3e38][i % 4] }
        for destination in [pcmFormat(rate: 48_000, channels: 1, bits: 32, float: true), pcmFormat(rate: 22_050, channels: 2, bits: 64, float: true)] {
            let out = convertPCM([bytes(of: wild)], from: pcmFormat(channels: 1, bits: 32, float: true), to: destination)
            #expect(out.status == noErr)
            let finite = destination.mBitsPerChannel == 32 ? floats(of: out.output[0]).allSatisfy { $0.isFinite }
                : out.output[0].withUnsafeBytes { $0.bindMemory(to: Double.self).allSatisfy { $0.isFinite } }
            #expect(finite)
        }
    }

    @Test func aWrongOutputBufferListIsRefused() throws {
        let (_, converter) = Self.newConverter(pcmFormat(bits: 16), pcmFormat(bits: 16, nonInterleaved: true))
        let id = try #require(converter)
        defer { AudioConverterDispose(id) }
        let feed = ConverterFeed(pcm: [[UInt8](repeating: 0, count: 400)], bytesPerFrame: 4)
        #expect(drain(id, feed, bufferCount: 1, bytesPerPacket: 2).statuses == [kAudio_ParamError])   // one buffer, two wanted
        #expect(drain(id, feed, bufferCount: 2, bytesPerPacket: 1, chunk: 1).statuses == [kAudioConverterErr_InvalidOutputSize])   // half a frame
        // An encoder's output: room for no packet, and no descriptions for variable packets.
        let aac = AudioStreamBasicDescription(mSampleRate: 44_100, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        let (_, encoder) = Self.newConverter(pcmFormat(bits: 16), aac)
        let encoderID = try #require(encoder)
        defer { AudioConverterDispose(encoderID) }
        let tone = ConverterFeed(pcm: [bytes(of: sine(frequency: 440, rate: 44_100, frames: 8_000, channels: 2).map { Int16($0 * 30_000) })], bytesPerFrame: 4)
        #expect(drain(encoderID, tone, bufferCount: 1, bytesPerPacket: 1_536, chunk: 4, compressed: false).statuses == [kAudioConverterErr_RequiresPacketDescriptionsError])
        #expect(drain(encoderID, tone, bufferCount: 1, bytesPerPacket: 1, chunk: 4, compressed: true).statuses.last == kAudioConverterErr_InvalidOutputSize)
    }

    @Test func anInputProcedureThatCallsItsOwnConverterNeitherHangsNorCrashes() throws {
        let (_, converter) = Self.newConverter(pcmFormat(channels: 1, bits: 16), pcmFormat(channels: 1, bits: 32, float: true))
        let id = try #require(converter)
        final class Box { var inner: OSStatus = 0; var dispose = false }
        let box = Box()
        let proc: AudioConverterComplexInputDataProc = { converter, ioNumberDataPackets, ioData, _, inUserData in
            let box = Unmanaged<Box>.fromOpaque(inUserData!).takeUnretainedValue()
            var quality: UInt32 = 0
            var size = UInt32(4)
            box.inner = AudioConverterGetProperty(converter, kAudioConverterSampleRateConverterQuality, &size, &quality)
            if box.dispose { _ = AudioConverterDispose(converter) }
            ioNumberDataPackets.pointee = 0
            return noErr
        }
        var packets: UInt32 = 16
        var room = [Float](repeating: 0, count: 16)
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(list.unsafeMutablePointer) }
        room.withUnsafeMutableBufferPointer { list[0] = AudioBuffer($0, numberOfChannels: 1) }
        #expect(AudioConverterFillComplexBuffer(id, proc, Unmanaged.passUnretained(box).toOpaque(), &packets, list.unsafeMutablePointer, nil) == noErr)
        #expect(box.inner == kAudioConverterErr_OperationNotSupported)
        // Disposing itself from its own input procedure: the call ends, the handle is stale.
        #expect(AudioConverterReset(id) == noErr)
        box.dispose = true
        packets = 16
        room.withUnsafeMutableBufferPointer { list[0] = AudioBuffer($0, numberOfChannels: 1) }
        _ = AudioConverterFillComplexBuffer(id, proc, Unmanaged.passUnretained(box).toOpaque(), &packets, list.unsafeMutablePointer, nil)
        #expect(AudioConverterReset(id) == kAudio_ParamError)
    }
}
