// An OpenAL game's sound loader: Apple's oalTouch "MyGetOpenALAudioData" (the loader the
// SoundEngine of many OpenAL games was built on) as Swift games port it. Extended Audio File
// Services opens any file the device reads; the client format is 16-bit native-endian interleaved
// PCM at the file's own rate and channels; kExtAudioFileProperty_FileLengthFrames sizes one
// malloc'd buffer and one ExtAudioFileRead fills it. The data, its AL_FORMAT_MONO16 or
// AL_FORMAT_STEREO16 and its rate are what the game hands to alBufferData (or
// alBufferDataStaticProc), and the game frees the data. Written as on iOS, imports
// and all.
import AudioToolbox
import Foundation
import OpenAL

/// The whole file as 16-bit PCM, or nil when it cannot be loaded; the caller frees the data.
func MyGetOpenALAudioData(_ inFileURL: CFURL, _ outDataSize: UnsafeMutablePointer<ALsizei>,
                          _ outDataFormat: UnsafeMutablePointer<ALenum>,
                          _ outSampleRate: UnsafeMutablePointer<ALsizei>) -> UnsafeMutableRawPointer? {
    var err: OSStatus = noErr
    var theFileLengthInFrames: Int64 = 0
    var theFileFormat = AudioStreamBasicDescription()
    var thePropertySize = UInt32(MemoryLayout.stride(ofValue: theFileFormat))
    var extRef: ExtAudioFileRef? = nil
    var theData: UnsafeMutableRawPointer? = nil
    var theOutputFormat = AudioStreamBasicDescription()

    // Exit: dispose the ExtAudioFileRef, it is no longer needed
    defer { if let extRef = extRef { ExtAudioFileDispose(extRef) } }

    // Open a file with ExtAudioFileOpen()
    err = ExtAudioFileOpenURL(inFileURL, &extRef)
    if err != noErr { print("MyGetOpenALAudioData: ExtAudioFileOpenURL FAILED, Error = \(err)"); return nil }

    // Get the audio data format
    err = ExtAudioFileGetProperty(extRef!, kExtAudioFileProperty_FileDataFormat, &thePropertySize, &theFileFormat)
    if err != noErr {
        print("MyGetOpenALAudioData: ExtAudioFileGetProperty(kExtAudioFileProperty_FileDataFormat) FAILED, Error = \(err)")
        return nil
    }
    if theFileFormat.mChannelsPerFrame > 2 {
        print("MyGetOpenALAudioData - Unsupported Format, channel count is greater than stereo")
        return nil
    }

    // Set the client format to 16 bit signed integer (native-endian) data
    // Maintain the channel count and sample rate of the original source format
    theOutputFormat.mSampleRate = theFileFormat.mSampleRate
    theOutputFormat.mChannelsPerFrame = theFileFormat.mChannelsPerFrame

    theOutputFormat.mFormatID = kAudioFormatLinearPCM
    theOutputFormat.mBytesPerPacket = 2 * theOutputFormat.mChannelsPerFrame
    theOutputFormat.mFramesPerPacket = 1
    theOutputFormat.mBytesPerFrame = 2 * theOutputFormat.mChannelsPerFrame
    theOutputFormat.mBitsPerChannel = 16
    theOutputFormat.mFormatFlags = kAudioFormatFlagsNativeEndian | kAudioFormatFlagIsPacked | kAudioFormatFlagIsSignedInteger

    // Set the desired client (output) data format
    err = ExtAudioFileSetProperty(extRef!, kExtAudioFileProperty_ClientDataFormat,
                                  UInt32(MemoryLayout.stride(ofValue: theOutputFormat)), &theOutputFormat)
    if err != noErr {
        print("MyGetOpenALAudioData: ExtAudioFileSetProperty(kExtAudioFileProperty_ClientDataFormat) FAILED, Error = \(err)")
        return nil
    }

    // Get the total frame count
    thePropertySize = UInt32(MemoryLayout.stride(ofValue: theFileLengthInFrames))
    err = ExtAudioFileGetProperty(extRef!, kExtAudioFileProperty_FileLengthFrames, &thePropertySize, &theFileLengthInFrames)
    if err != noErr {
        print("MyGetOpenALAudioData: ExtAudioFileGetProperty(kExtAudioFileProperty_FileLengthFrames) FAILED, Error = \(err)")
        return nil
    }

    // Read all the data into memory
    let dataSize = UInt32(theFileLengthInFrames) * theOutputFormat.mBytesPerFrame
    theData = malloc(Int(dataSize))
    if theData != nil {
        var theDataBuffer = AudioBufferList()
        theDataBuffer.mNumberBuffers = 1
        theDataBuffer.mBuffers.mDataByteSize = dataSize
        theDataBuffer.mBuffers.mNumberChannels = theOutputFormat.mChannelsPerFrame
        theDataBuffer.mBuffers.mData = theData

        // Read the data into an AudioBufferList
        var ioNumberFrames = UInt32(theFileLengthInFrames)
        err = ExtAudioFileRead(extRef!, &ioNumberFrames, &theDataBuffer)
        if err == noErr {
            // success
            outDataSize.pointee = ALsizei(dataSize)
            outDataFormat.pointee = theOutputFormat.mChannelsPerFrame > 1 ? AL_FORMAT_STEREO16 : AL_FORMAT_MONO16
            outSampleRate.pointee = ALsizei(theOutputFormat.mSampleRate)
        } else {
            // failure
            free(theData)
            theData = nil // make sure to return NULL
            print("MyGetOpenALAudioData: ExtAudioFileRead FAILED, Error = \(err)")
        }
    }
    return theData
}
